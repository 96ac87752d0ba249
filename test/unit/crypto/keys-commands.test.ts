/** `svc keys …` run() in-process: input rules that are awkward to reach through a spawned CLI. */
import { verify as nodeVerify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { run as stamp } from '../../../commands/keys/stamp.js';
import { run as encryptOtp } from '../../../commands/keys/encrypt-otp.js';
import { createOtpTargetBundle } from '../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { parseStamp, verifyStamp } from '../../../src/crypto/stamp.js';
import { nodePublicKey } from './node-keys.js';
import { STAMP_VECTOR } from './vectors.js';
import { rejected } from '../../helpers/caught.js';
import { tempDir } from '../../helpers/temp-dir.js';

const usage = (promise: Promise<unknown>) => rejected(promise, UsageError);

describe('keys stamp run()', () => {
  const key = STAMP_VECTOR.privateKey;

  it('signs stdin bytes exactly, trailing newline included', async () => {
    const deps = fakeDeps({ stdin: 'a\n' });
    await stamp({ privateKey: key }, deps);
    expect(verifyStamp(deps.stdout().trim(), 'a\n').publicKey).toBe(STAMP_VECTOR.publicKey);
  });

  it('signs a --payload-file that is not UTF-8 byte for byte (checked by node:crypto over the file)', async () => {
    const file = join(tempDir('svc-stamp-'), 'payload.bin');
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0a]);
    writeFileSync(file, bytes);
    const deps = fakeDeps();
    await stamp({ privateKey: key, payloadFile: file }, deps);
    const { signature } = parseStamp(deps.stdout().trim());
    expect(
      nodeVerify(
        'sha256',
        bytes,
        { key: nodePublicKey(STAMP_VECTOR.publicKey), dsaEncoding: 'der' },
        Buffer.from(signature, 'hex'),
      ),
    ).toBe(true);
  });

  it('asks for --payload instead of waiting on a terminal', async () => {
    expect((await usage(stamp({ privateKey: key }, fakeDeps({ tty: true })))).input).toBe('--payload');
  });

  it('refuses an empty stdin (a forgotten pipe) instead of stamping nothing, but signs an explicit empty --payload', async () => {
    const deps = fakeDeps({ stdin: '' });
    const err = await usage(stamp({ privateKey: key }, deps));
    expect(err.input).toBe('--payload');
    expect(err.message).toMatch(/stdin was empty/);
    expect(deps.stdout()).toBe('');
    const explicit = fakeDeps();
    await stamp({ privateKey: key, payload: '' }, explicit);
    expect(verifyStamp(explicit.stdout().trim(), '').publicKey).toBe(STAMP_VECTOR.publicKey);
  });

  it('refuses two payload sources and two key sources', async () => {
    expect((await usage(stamp({ privateKey: key, payload: 'x', payloadFile: '/x' }, fakeDeps()))).input).toBe(
      '--payload',
    );
    expect((await usage(stamp({ privateKey: key, privateKeyFile: '/x', payload: 'x' }, fakeDeps()))).input).toBe(
      '--private-key',
    );
  });

  it('names the key file flag and never prints the file content', async () => {
    const dir = tempDir('svc-keys-');
    const file = join(dir, 'bad-key');
    writeFileSync(file, 'not-a-key-secret-text\n');
    const bad = await usage(stamp({ privateKeyFile: file, payload: 'x' }, fakeDeps()));
    expect(bad.input).toBe('--private-key-file');
    expect(bad.message).not.toContain('not-a-key-secret-text');
    expect((await usage(stamp({ privateKeyFile: join(dir, 'missing'), payload: 'x' }, fakeDeps()))).input).toBe(
      '--private-key-file',
    );
  });
});

describe('keys encrypt-otp run()', () => {
  const signer = generateKeyPair();
  const bundle = createOtpTargetBundle(signer.privateKey, generateKeyPair().publicKey);

  it('prints JSON even without --json', async () => {
    const deps = fakeDeps();
    await encryptOtp({ bundle, code: '000000', signer: signer.publicKey }, deps);
    expect(JSON.parse(deps.stdout()).tekPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });

  it('refuses an empty code naming --code', async () => {
    expect((await usage(encryptOtp({ bundle, code: '', signer: signer.publicKey }, fakeDeps()))).input).toBe('--code');
  });
});
