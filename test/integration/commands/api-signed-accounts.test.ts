/**
 * `svc api` on the signed account endpoints: a wallet export round trip (202 challenge, signed
 * retry, credentials sealed to our key and opened here) and the signed PATCH of an internal account,
 * run() with fake IO and spawned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type ApiOptions } from '../../../commands/api/run.js';
import { api as apiSpec } from '../../../commands/api/verbs.js';
import { optionsWith } from '../../helpers/verb-options.js';
import { generateKeyPair, decompressPublicKey } from '../../../src/crypto/keys.js';
import { hpkeOpen } from '../../../src/crypto/hpke.js';
import { hexToBytes } from '../../../src/crypto/hex.js';
import { runSvc } from '../../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../auth/support.js';
import { login } from '../auth/login.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv({ processingRetries: 1 })));
afterAll(() => t.close());

const opts = (method: string, path: string, o: Partial<ApiOptions> = {}): ApiOptions =>
  optionsWith(apiSpec, { method, path, ...o });

async function openExport(body: { encryptedWalletCredentials: string }, privateKey: string): Promise<string> {
  const bundle = JSON.parse(body.encryptedWalletCredentials) as { data: string };
  const data = JSON.parse(Buffer.from(bundle.data, 'hex').toString('utf8')) as {
    encappedPublic: string;
    ciphertext: string;
  };
  return new TextDecoder().decode(
    await hpkeOpen(privateKey, hexToBytes(data.encappedPublic), hexToBytes(data.ciphertext)),
  );
}

describe('svc api on signed account endpoints', () => {
  it('POST /internal-accounts/{id}/export: signed for you, PROCESSING followed; the credentials open with our key', async () => {
    const session = await login(t);
    const key = generateKeyPair();
    const d = t.deps({ globals: { json: true } });
    await run(
      opts('POST', `/internal-accounts/${session.accountId}/export`, {
        rawField: [`clientPublicKey=${decompressPublicKey(key.publicKey)}`],
      }),
      d,
    );
    const body = JSON.parse(d.stdout());
    expect(body.id).toBe(session.accountId);
    const phrase = await openExport(body, key.privateKey);
    expect(phrase.split(' ')).toHaveLength(24);
    expect(t.proxy.count(`/internal-accounts/${session.accountId}/export`, true)).toBe(2); // PROCESSING, then the answer
  });

  it('spawned: the same export, and PATCH /internal-accounts/{id} -F privateEnabled=true (typed boolean)', async () => {
    const session = await login(t);
    const key = generateKeyPair();
    const exported = await runSvc(
      [
        '--json',
        'api',
        'POST',
        `/internal-accounts/${session.accountId}/export`,
        '-f',
        `clientPublicKey=${decompressPublicKey(key.publicKey)}`,
      ],
      { env: t.env, configDir: t.configDir },
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect((await openExport(JSON.parse(exported.stdout), key.privateKey)).split(' ')).toHaveLength(24);
    expect(exported.stdout).not.toContain(key.privateKey);

    const patched = await runSvc(
      ['--json', 'api', 'PATCH', `/internal-accounts/${session.accountId}`, '-F', 'privateEnabled=true'],
      { env: t.env, configDir: t.configDir },
    );
    expect(patched.code, patched.stderr).toBe(0);
    expect(JSON.parse(patched.stdout)).toMatchObject({ id: session.accountId, privateEnabled: true });
  });
});
