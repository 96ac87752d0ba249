/**
 * `svc otp verify` through its run() against a real emulator (real HPKE, real stamps), with a
 * recording proxy in between to prove what was (and was not) sent.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as otpVerify } from '../../../commands/otp/verify.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { generateKeyPair, publicKeyFromPrivate } from '../../../src/crypto/keys.js';
import { authEnv, leakedSecrets, sessionFileModes, type AuthEnv } from './support.js';
import { caught } from './login.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

/** A separate emulator and config dir, for tests whose pin or sessions must start empty. */
const fresh = (): Promise<AuthEnv> => authEnv();

describe('svc otp verify (run)', () => {
  it("uses the profile's credential when --yes answers the question or no terminal can ask it", async () => {
    const own = await fresh();
    try {
      const store = own.store();
      store.setProfile(store.currentProfileName(), { credentialId: own.emu.fixtures.credentialId });
      // On a terminal with --yes nothing is asked (the fake prompter throws on any question).
      for (const o of [{ tty: true, globals: { yes: true } }, { tty: false }]) {
        const deps = own.deps(o);
        await otpVerify({ code: '000000' }, deps);
        expect(deps.asked).toEqual([]);
        expect(deps.stderr()).toContain(`Logging in with ${own.emu.fixtures.credentialId}`);
        expect(deps.stdout()).toContain(own.emu.fixtures.accountId);
      }
    } finally {
      await own.close();
    }
  });

  it('logs in with --code, stores the key 0600, makes it active and pins the signer on first use', async () => {
    const deps = t.deps();
    await otpVerify({ credential: t.emu.fixtures.credentialId, code: '000000' }, deps);

    const store = t.store();
    const profile = store.getProfile(store.currentProfileName())!;
    const stored = store.getSession(profile.activeSessionId!)!;
    expect(stored.accountId).toBe(t.emu.fixtures.accountId);
    expect(stored.credentialId).toBe(t.emu.fixtures.credentialId);
    expect(publicKeyFromPrivate(stored.privateKey)).toBe(stored.publicKey);
    expect(sessionFileModes(t.configDir)).toEqual([0o600]);
    // TOFU: the emulator's signer is now pinned for sandbox tokens (the emulator's), and the user was told.
    expect(profile.sandboxOtpSigners).toEqual({ [t.proxy.baseUrl]: t.emu.otpSignerPublicKey });
    expect(profile.otpSigners).toBeUndefined();
    expect(deps.stderr()).toMatch(/pinned it for sandbox tokens at \S+ in profile/);
    expect(deps.stdout()).toContain(stored.id);
    expect(leakedSecrets(deps.stdout() + deps.stderr(), [stored.privateKey, t.emu.apiClientSecret])).toEqual([]);
    expect(t.proxy.count('/challenge')).toBe(1);
  });

  it('--json prints the AuthSession plus keyStored, never the private key', async () => {
    const deps = t.deps({ globals: { json: true } });
    await otpVerify({ credential: t.emu.fixtures.credentialId, code: '000000' }, deps);
    const out = JSON.parse(deps.stdout());
    expect(out).toMatchObject({ accountId: t.emu.fixtures.accountId, keyStored: true });
    expect(out.id).toMatch(/^Session:/);
    const stored = t.store().getSession(out.id)!;
    expect(Object.keys(out)).not.toContain('privateKey');
    expect(leakedSecrets(deps.stdout() + deps.stderr(), [stored.privateKey])).toEqual([]);
    // The pin already exists now, so nothing is said about it again.
    expect(deps.stderr()).not.toMatch(/pinned/);
  });

  it('on a terminal, a wrong code is retried with a fresh challenge, then the right one succeeds', async () => {
    const before = t.proxy.count('/challenge');
    const deps = t.deps({ tty: true, answers: ['123456', '000000'] });
    await otpVerify({ credential: t.emu.fixtures.credentialId }, deps);
    expect(deps.asked).toHaveLength(2);
    expect(deps.asked[1]).toMatch(/attempt 2 of 3/);
    expect(t.proxy.count('/challenge') - before).toBe(2);
    expect(deps.stderr()).toMatch(/not accepted/);
  });

  it('gives up after three wrong codes with exit 4 and stores nothing', async () => {
    const f = await fresh();
    try {
      const deps = f.deps({ tty: true, answers: ['111111', '222222', '333333'] });
      const error = await caught(otpVerify({ credential: f.emu.fixtures.credentialId }, deps));
      expect(exitCodeFor(error)).toBe(4);
      expect((error as { reason?: string }).reason).toBe('Invalid OTP code');
      expect(f.proxy.count('/challenge')).toBe(3);
      expect(f.store().listSessions()).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('refuses a bundle from a signer other than the pinned one, before encrypting or verifying', async () => {
    const f = await fresh();
    try {
      const store = f.store();
      const impostor = generateKeyPair({ uncompressed: true }).publicKey;
      store.setProfile('default', { otpSignerPublicKey: impostor });
      const deps = f.deps();
      const error = await caught(otpVerify({ credential: f.emu.fixtures.credentialId, code: '000000' }, deps));
      expect(String((error as Error).message)).toMatch(/pinned signer/);
      expect(exitCodeFor(error)).toBe(1);
      expect(f.proxy.count('/verify')).toBe(0);
      expect(store.listSessions()).toEqual([]);
      expect(store.getProfile('default')!.otpSignerPublicKey).toBe(impostor);
    } finally {
      await f.close();
    }
  });

  it('reads the code from stdin with --code -', async () => {
    const deps = t.deps({ stdin: '000000\n' });
    await otpVerify({ credential: t.emu.fixtures.credentialId, code: '-' }, deps);
    expect(deps.stdout()).toMatch(/Session:\s+Session:/);
  });

  it('--code - stops reading at the first line, so a stdin that stays open does not hang', async () => {
    const deps = t.deps();
    const stdin = new PassThrough();
    deps.io.stdin = stdin;
    stdin.write('000000\n'); // and never ended, like a terminal or a CI pipe left open
    await otpVerify({ credential: t.emu.fixtures.credentialId, code: '-' }, deps);
    expect(deps.stdout()).toMatch(/Session:\s+Session:/);
  }, 10_000);

  it.each([
    ['no terminal', { tty: false }],
    ['CI', { tty: true, env: { CI: 'true' } }],
    ['--no-input', { tty: true, globals: { input: false } }],
  ])('without --code (%s) fails with exit 2 naming --code before any request', async (_label, options) => {
    const before = t.proxy.seen.length;
    const error = await caught(otpVerify({ credential: t.emu.fixtures.credentialId }, t.deps(options)));
    expect(exitCodeFor(error)).toBe(2);
    expect((error as { input?: string }).input).toBe('--code');
    expect(t.proxy.seen.length).toBe(before);
  });

  it.each([
    [{ credential: 'not-an-id', code: '000000' }, '--credential'],
    [{ credential: undefined, code: '000000' }, '--credential'],
    [{ credential: 'AuthMethod:00000000-0000-4000-8000-000000000000', code: '12ab' }, '--code'],
  ])('bad input %j exits 2 naming %s, nothing sent', async (opts, field) => {
    const before = t.proxy.seen.length;
    const error = await caught(otpVerify(opts, t.deps()));
    expect(exitCodeFor(error)).toBe(2);
    expect((error as { input?: string }).input).toBe(field);
    expect(t.proxy.seen.length).toBe(before);
  });
});
