import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../commands/webhook/verify.js';
import { UsageError, VerificationError } from '../../../src/errors.js';
import { signWebhookBody } from '../../../src/crypto/webhook-signature.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { keys, otherKeys } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

const body = '{"id":"Webhook:1","type":"CARD.STATE_CHANGE","timestamp":"2025-10-13T00:00:00Z","data":{"id":"Card:1"}}';
const signature = signWebhookBody(body, keys.privateKeyPem);
const deps = (options: Parameters<typeof fakeDeps>[0] = {}) =>
  fakeDeps({ ...options, env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-'), ...options.env } });

describe('svc webhook verify', () => {
  it('prints "valid" for a good signature over --body', async () => {
    const d = deps();
    await run({ publicKey: keys.publicKeyPem, signature, body }, d);
    expect(d.stdout()).toBe('valid\n');
  });

  it('takes the bare base64 header and the older {"v":"1","s":…} form alike', async () => {
    expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    for (const header of [signature, JSON.stringify({ v: '1', s: signature })]) {
      const d = deps();
      await run({ publicKey: keys.publicKeyPem, signature: header, body }, d);
      expect(d.stdout()).toBe('valid\n');
    }
  });

  it('--json prints {"valid":true}; the key may come from SERVICE_WEBHOOK_PUBKEY', async () => {
    const d = deps({ globals: { json: true }, env: { SERVICE_WEBHOOK_PUBKEY: keys.publicKeyPem } });
    await run({ signature, body }, d);
    expect(JSON.parse(d.stdout())).toEqual({ valid: true });
  });

  it('reads exact bytes from --body-file and from stdin ("-")', async () => {
    const file = join(tempDir('svc-body-'), 'delivery.json');
    writeFileSync(file, body);
    const d = deps();
    await run({ publicKey: keys.publicKeyPem, signature, bodyFile: file }, d);
    expect(d.stdout()).toBe('valid\n');
    const fromStdin = deps({ stdin: body });
    await run({ publicKey: keys.publicKeyPem, signature, bodyFile: '-' }, fromStdin);
    expect(fromStdin.stdout()).toBe('valid\n');
    // A trailing newline is a different body.
    writeFileSync(file, body + '\n');
    await expect(run({ publicKey: keys.publicKeyPem, signature, bodyFile: file }, deps())).rejects.toBeInstanceOf(
      VerificationError,
    );
  });

  it('fails (exit 1) with the reason for a tampered body, a wrong key, or a malformed header', async () => {
    const d = deps();
    await expect(
      run({ publicKey: keys.publicKeyPem, signature, body: body.replace('Card:1', 'Card:2') }, d),
    ).rejects.toThrow(/does not verify/);
    await expect(run({ publicKey: otherKeys.publicKeyPem, signature, body }, d)).rejects.toThrow(/does not verify/);
    await expect(run({ publicKey: keys.publicKeyPem, signature: '{"v":"1"}', body }, d)).rejects.toThrow(
      /malformed: field "s"/,
    );
    await expect(run({ publicKey: keys.publicKeyPem, signature: 'not base64!', body }, d)).rejects.toBeInstanceOf(
      VerificationError,
    );
    expect(d.stdout()).toBe('');
  });

  it('names the flag when the body or key is missing or doubled', async () => {
    await expect(run({ publicKey: keys.publicKeyPem, signature }, deps())).rejects.toBeInstanceOf(UsageError);
    await expect(run({ publicKey: keys.publicKeyPem, signature, body, bodyFile: 'x' }, deps())).rejects.toThrow(
      /either --body or --body-file, not both/,
    );
    await expect(run({ signature, body }, deps())).rejects.toMatchObject({ input: '--public-key' });
  });
});
