/** `svc keys …` as a real process: stdout/stderr split, --json shapes and exit codes 0/1/2. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { createOtpTargetBundle, decryptOtpBundle } from '../../src/crypto/bundles.js';
import { decompressPublicKey, generateKeyPair, publicKeyFromPrivate } from '../../src/crypto/keys.js';
import { createStamp, parseStamp, verifyStamp } from '../../src/crypto/stamp.js';
import { LEGACY_BUNDLES, LEGACY_PLAINTEXT, STAMP_VECTOR } from '../unit/crypto/vectors.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('svc-keys-');

describe('svc keys generate', () => {
  it('prints a labelled pair, or JSON with --json', async () => {
    const human = await runSvc(['keys', 'generate']);
    expect(human.code).toBe(0);
    const [, priv] = /^Private key: ([0-9a-f]{64})$/m.exec(human.stdout)!;
    const [, pub] = /^Public key: +(0[23][0-9a-f]{64})$/m.exec(human.stdout)!;
    expect(publicKeyFromPrivate(priv)).toBe(pub);

    const json = await runSvc(['--json', 'keys', 'generate', '--uncompressed']);
    expect(json.code).toBe(0);
    const pair = JSON.parse(json.stdout);
    expect(Object.keys(pair)).toEqual(['privateKey', 'publicKey']);
    expect(pair.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(publicKeyFromPrivate(pair.privateKey, { uncompressed: true })).toBe(pair.publicKey);
  });
});

describe('svc keys stamp', () => {
  it('stamps a payload from stdin, byte for byte the src/crypto/README.md vector', async () => {
    const r = await runSvc(['keys', 'stamp', '--private-key', STAMP_VECTOR.privateKey], {
      stdin: STAMP_VECTOR.payload,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(createStamp(STAMP_VECTOR.payload, STAMP_VECTOR.privateKey) + '\n');
    expect(parseStamp(r.stdout.trim()).signature).toBe(STAMP_VECTOR.signature);
  });

  it('signs --payload-file as exact bytes and reads the key file trimmed', async () => {
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `  ${STAMP_VECTOR.privateKey}\n`);
    const payloadFile = join(dir, 'payload');
    writeFileSync(payloadFile, 'line\n');
    const r = await runSvc(['--json', 'keys', 'stamp', '--private-key-file', keyFile, '--payload-file', payloadFile]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.publicKey).toBe(STAMP_VECTOR.publicKey);
    expect(verifyStamp(out.stamp, 'line\n').publicKey).toBe(STAMP_VECTOR.publicKey);
    expect(() => verifyStamp(out.stamp, 'line')).toThrow(/does not verify/);
  });

  it('exits 2 when nothing comes on stdin (a script that forgot the pipe), printing no stamp', async () => {
    const r = await runSvc(['keys', 'stamp', '--private-key', STAMP_VECTOR.privateKey]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--payload');
  });

  it('exits 2 naming --private-key when the key is missing or bad, without echoing it', async () => {
    const missing = await runSvc(['keys', 'stamp', '--payload', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('--private-key');

    const secretish = 'ab'.repeat(31);
    const bad = await runSvc(['keys', 'stamp', '--payload', 'x', '--private-key', secretish]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--private-key');
    expect(bad.stderr).not.toContain(secretish);
  });
});

describe('svc keys verify-stamp', () => {
  const { privateKey, publicKey } = generateKeyPair();
  const stamp = createStamp('{"type":"X"}', privateKey);

  it('exits 0 and prints the public key (or {"valid":true,…})', async () => {
    const human = await runSvc(['keys', 'verify-stamp', '--stamp', stamp, '--payload', '{"type":"X"}']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(publicKey + '\n');
    const json = await runSvc(['--json', 'keys', 'verify-stamp', '--stamp', stamp], { stdin: '{"type":"X"}' });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ valid: true, publicKey });
  });

  it('exits 1 with the reason when the payload differs or the stamp is garbage', async () => {
    const wrong = await runSvc(['keys', 'verify-stamp', '--stamp', stamp, '--payload', '{"type":"Y"}']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/does not verify/);
    const garbage = await runSvc(['--json', 'keys', 'verify-stamp', '--stamp', 'garbage!', '--payload', 'x']);
    expect(garbage.code).toBe(1);
    expect(JSON.parse(garbage.stderr).error.message).toMatch(/base64url/);
  });
});

describe('svc keys encrypt-otp', () => {
  const signer = generateKeyPair();
  const target = generateKeyPair();
  const bundle = createOtpTargetBundle(signer.privateKey, target.publicKey);

  it('checks the signer, encrypts the code and prints the TEK', async () => {
    const r = await runSvc([
      'keys',
      'encrypt-otp',
      '--bundle',
      bundle,
      '--code',
      '000000',
      '--signer',
      decompressPublicKey(signer.publicKey),
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['encryptedOtpBundle', 'tekPrivateKey', 'tekPublicKey']);
    expect(publicKeyFromPrivate(out.tekPrivateKey)).toBe(out.tekPublicKey);
    expect(await decryptOtpBundle(out.encryptedOtpBundle, target.privateKey)).toEqual({
      otp_code: '000000',
      public_key: out.tekPublicKey,
    });
  });

  it('exits 1 for another signer and 2 for a --signer that is not a key', async () => {
    const other = await runSvc([
      'keys',
      'encrypt-otp',
      '--bundle',
      bundle,
      '--code',
      '000000',
      '--signer',
      generateKeyPair().publicKey,
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toMatch(/pinned signer/);
    const bad = await runSvc(['keys', 'encrypt-otp', '--bundle', bundle, '--code', '000000', '--signer', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--signer');
  });
});

describe('svc keys decrypt-bundle', () => {
  it('prints the plaintext hex of the src/crypto/README.md vector', async () => {
    const v = LEGACY_BUNDLES[1];
    const r = await runSvc(['keys', 'decrypt-bundle', '--bundle', v.bundle, '--private-key', v.privateKey]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(LEGACY_PLAINTEXT + '\n');
    const json = await runSvc([
      '--json',
      'keys',
      'decrypt-bundle',
      '--bundle',
      v.bundle,
      '--private-key',
      v.privateKey,
    ]);
    expect(JSON.parse(json.stdout)).toEqual({ plaintext: LEGACY_PLAINTEXT });
  });

  it('exits 1 for the wrong key and 2 for no key', async () => {
    const v = LEGACY_BUNDLES[0];
    const wrong = await runSvc([
      'keys',
      'decrypt-bundle',
      '--bundle',
      v.bundle,
      '--private-key',
      LEGACY_BUNDLES[1].privateKey,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/HPKE decryption failed/);
    const none = await runSvc(['keys', 'decrypt-bundle', '--bundle', v.bundle]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--private-key');
  });
});
