/**
 * `svc otp verify` as a real process (bin/svc.js, CI=true, private config dir) against a real
 * emulator behind a recording proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { generateKeyPair } from '../../src/crypto/keys.js';
import { authEnv, leakedSecrets, sessionFileModes, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

const svc = (args: string[], stdin?: string) => runSvc(args, { env: t.env, configDir: t.configDir, stdin });

describe('svc otp verify (spawned)', () => {
  it('logs in with --code, pins the signer on first use and stores the key 0600 without printing it', async () => {
    const r = await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000']);
    expect(r.stderr).toMatch(/pinned it for sandbox tokens at \S+ in profile "default"/);
    expect(r.code).toBe(0);
    const stored = activeSession(t)!;
    expect(r.stdout).toContain(stored.id);
    expect(sessionFileModes(t.configDir)).toEqual([0o600]);
    expect(t.store().getProfile('default')!.sandboxOtpSigners).toEqual({ [t.proxy.baseUrl]: t.emu.otpSignerPublicKey });
    expect(leakedSecrets(r.stdout + r.stderr, [stored.privateKey, t.emu.apiClientSecret])).toEqual([]);
  });

  it('--json with --code - (stdin) prints the AuthSession plus keyStored and nothing else', async () => {
    const r = await svc(
      ['--json', 'otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '-'],
      '000000\n',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ accountId: t.emu.fixtures.accountId, keyStored: true });
    expect(out.privateKey).toBeUndefined();
    expect(leakedSecrets(r.stdout + r.stderr, [activeSession(t)!.privateKey])).toEqual([]);
  });

  it('without --code in CI: exit 2 naming --code, and no request reaches the service', async () => {
    const before = t.proxy.seen.length;
    const r = await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--code/);
    expect(t.proxy.seen.length).toBe(before);
  });

  it('a wrong code from --code is not retried: exit 4 with the OTP reason', async () => {
    const before = t.proxy.count('/challenge');
    const r = await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '123456']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Invalid OTP code/);
    expect(t.proxy.count('/challenge') - before).toBe(1);
  });

  it('refuses a bundle whose signer differs from the pin: exit 1, nothing encrypted or stored', async () => {
    const f = await authEnv();
    try {
      f.store().setProfile('default', { otpSignerPublicKey: generateKeyPair({ uncompressed: true }).publicKey });
      const r = await runSvc(['otp', 'verify', '--credential', f.emu.fixtures.credentialId, '--code', '000000'], {
        env: f.env,
        configDir: f.configDir,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/pinned signer/);
      expect(f.proxy.count('/verify')).toBe(0);
      expect(f.store().listSessions()).toEqual([]);
    } finally {
      await f.close();
    }
  });
});
