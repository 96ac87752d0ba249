/**
 * `svc login` and `svc credentials` as real processes (bin/svc.js, CI=true, private config dir)
 * against a real emulator behind a recording proxy: software passkey add → passkey login, sandbox
 * OAuth add → login, the two-step OAuth nonce flow over stdin, a signed remove, SMS add → OTP login,
 * and exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { mintSandboxToken, SANDBOX_IDENTITY } from '../../src/auth/oidc-token.js';
import { authEnv, leakedSecrets, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

const svc = (args: string[], stdin?: string) => runSvc(args, { env: t.env, configDir: t.configDir, stdin });
const ok = (r: { code: number | null; stderr: string }) => expect(r.code, r.stderr).toBe(0);

describe('svc login / svc credentials (spawned)', () => {
  let passkeyId: string;
  let oauthId: string;

  it('login otp, then credentials add passkey --software (signed) and login passkey', async () => {
    ok(await svc(['login', 'otp', '--credential', t.emu.fixtures.credentialId, '--code', '000000']));
    const added = await svc(['--json', 'credentials', 'add', 'passkey', '--software', '--nickname', 'e2e key']);
    ok(added);
    passkeyId = JSON.parse(added.stdout).id;
    expect(t.proxy.count('/auth/credentials', true)).toBe(1);
    const login = await svc(['login', 'passkey', '--credential', passkeyId]);
    ok(login);
    expect(login.stdout).toMatch(/Credential: PASSKEY e2e key/);
    expect(activeSession(t)!.credentialId).toBe(passkeyId);
    expect(leakedSecrets(login.stdout + login.stderr, [activeSession(t)!.privateKey])).toEqual([]);
  });

  it('credentials add oauth --sandbox-token, login oauth --sandbox-token', async () => {
    const added = await svc(['--json', 'credentials', 'add', 'oauth', '--sandbox-token', '--subject', 'e2e-user']);
    ok(added);
    oauthId = JSON.parse(added.stdout).id;
    const login = await svc([
      '--json',
      'login',
      'oauth',
      '--credential',
      oauthId,
      '--sandbox-token',
      '--subject',
      'e2e-user',
    ]);
    ok(login);
    expect(JSON.parse(login.stdout)).toMatchObject({ type: 'OAUTH', keyStored: true });
    // Another subject is another identity: the service refuses it (401 → exit 4).
    const other = await svc([
      'login',
      'oauth',
      '--credential',
      oauthId,
      '--sandbox-token',
      '--subject',
      'someone-else',
    ]);
    expect(other.code).toBe(4);
    expect(other.stderr).toMatch(/sub does not match/);
  });

  it('login oauth --nonce prints the nonce; --token - reads a token carrying it from stdin', async () => {
    const nonce = await svc(['login', 'oauth', '--credential', oauthId, '--nonce']);
    ok(nonce);
    const value = nonce.stdout.trim();
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    const token = mintSandboxToken({ ...SANDBOX_IDENTITY, subject: 'e2e-user' }, { nowMs: Date.now(), nonce: value });
    const login = await svc(['login', 'oauth', '--credential', oauthId, '--token', '-'], `${token}\n`);
    ok(login);
    expect(login.stdout).toMatch(/Credential: OAUTH/);
  });

  it('credentials list, then remove the passkey with --yes; exit 2 without --yes', async () => {
    const list = await svc(['credentials', 'list']);
    ok(list);
    expect(list.stdout).toMatch(/PASSKEY\s+e2e key/);
    const refused = await svc(['credentials', 'remove', passkeyId]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    ok(await svc(['--yes', 'credentials', 'remove', passkeyId]));
    const after = await svc(['--json', 'credentials', 'list']);
    expect(JSON.parse(after.stdout).data.map((c: { id: string }) => c.id)).not.toContain(passkeyId);
    const gone = await svc(['login', 'passkey', '--credential', passkeyId]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/No software passkey/);
  });

  it("credentials add sms (the README's line) on a fresh emulator, then login otp with that SMS_OTP credential", async () => {
    const added = await svc(['--json', 'credentials', 'add', 'sms']);
    ok(added);
    const sms = JSON.parse(added.stdout);
    expect(sms).toMatchObject({ type: 'SMS_OTP', nickname: t.emu.fixtures.phoneNumber });
    const login = await svc(['--json', 'login', 'otp', '--credential', sms.id, '--code', '000000']);
    ok(login);
    expect(JSON.parse(login.stdout)).toMatchObject({ type: 'SMS_OTP', nickname: t.emu.fixtures.phoneNumber });
    expect(activeSession(t)!.credentialId).toBe(sms.id);
  });

  it('bad input exits 2 naming the flag, before any request', async () => {
    const before = t.proxy.seen.length;
    const r = await svc(['credentials', 'add', 'passkey']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--software/);
    const noToken = await svc(['login', 'oauth', '--credential', oauthId]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/--token/);
    expect(t.proxy.seen.length).toBe(before);
  });
});
