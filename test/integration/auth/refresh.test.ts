/**
 * `svc session refresh` through run() against a real emulator: PROCESSING followed to 201, the
 * legacy sealed-key flow, an interrupted refresh leaving the old session usable, expired
 * sessions and 401s mapped to exit 4 with the right hint. "Usable" is always proven by signing
 * again with the stored key against the emulator, which checks the key belongs to a live session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as refresh } from '../../../commands/session/refresh.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { createClient } from '../../../src/http/index.js';
import { refreshSession } from '../../../src/auth/index.js';
import { generateKeyPair, isCompressedPublicKey } from '../../../src/crypto/keys.js';
import { InterruptedError, type ApiError, type AuthRequiredError } from '../../../src/errors.js';
import { hintFor } from '../../../commands/error-hints.js';
import { authEnv, leakedSecrets, sessionFileModes, type AuthEnv } from './support.js';
import { activeSession, caught, login } from './login.js';

let t: AuthEnv;
beforeAll(async () => {
  // Two PROCESSING answers before each signed retry settles, as a slow provider would give.
  t = await authEnv({ processingRetries: 2 });
});
afterAll(() => t.close());

const clientFor = (env: AuthEnv) =>
  createClient({
    baseUrl: env.proxy.baseUrl,
    auth: { kind: 'basic', tokenId: env.emu.apiTokenId, secret: env.emu.apiClientSecret },
  });

describe('svc session refresh (run)', () => {
  it('follows PROCESSING to 201, stores the new key 0600, makes it active and then forgets the old key', async () => {
    const old = await login(t);
    const before = t.proxy.count('/refresh', true);
    const deps = t.deps();
    await refresh({ legacy: false }, deps);

    const now = activeSession(t)!;
    expect(now.id).not.toBe(old.id);
    expect(isCompressedPublicKey(now.publicKey)).toBe(true);
    expect(t.store().getSession(old.id)).toBeUndefined();
    expect(sessionFileModes(t.configDir).every((m) => m === 0o600)).toBe(true);
    // One signed retry plus two byte-identical re-sends.
    expect(t.proxy.count('/refresh', true) - before).toBe(3);
    expect(deps.stderr()).toMatch(/attempt 1/);
    expect(deps.stderr()).toMatch(/attempt 2/);
    expect(
      leakedSecrets(deps.stdout() + deps.stderr(), [old.privateKey, now.privateKey, t.emu.apiClientSecret]),
    ).toEqual([]);

    // The stored key really is the new session's key: it signs the next refresh.
    await refresh({ session: now.id, legacy: false }, t.deps());
    expect(activeSession(t)!.id).not.toBe(now.id);
  });

  it('--legacy decrypts encryptedSessionSigningKey, stores that key and warns about deprecation', async () => {
    await login(t);
    const deps = t.deps({ globals: { json: true } });
    await refresh({ legacy: true }, deps);
    expect(deps.stderr()).toMatch(/deprecated/);
    const out = JSON.parse(deps.stdout());
    expect(out).toMatchObject({ keyStored: true, legacy: true });
    expect(out.encryptedSessionSigningKey).toBeUndefined();
    const stored = activeSession(t)!;
    expect(stored.id).toBe(out.id);
    expect(leakedSecrets(deps.stdout(), [stored.privateKey])).toEqual([]);
    // The decrypted key is the one the service registered: it can sign.
    await refresh({ legacy: false }, t.deps());
    expect(activeSession(t)!.id).not.toBe(stored.id);
  });

  it('an abort right after the challenge changes nothing; the old session then refreshes fine', async () => {
    const old = await login(t);
    const store = t.store();
    const sessionsBefore = store.listSessions().map((s) => s.id);
    const controller = new AbortController();
    const error = await caught(
      refreshSession({
        client: clientFor(t),
        store,
        profileName: 'default',
        sessionId: old.id,
        signal: controller.signal,
        hooks: { onChallenge: () => controller.abort() },
      }),
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect(activeSession(t)!.id).toBe(old.id);
    expect(store.listSessions().map((s) => s.id)).toEqual(sessionsBefore);

    const again = await refreshSession({ client: clientFor(t), store, profileName: 'default', sessionId: old.id });
    expect(activeSession(t)!.id).toBe(again.session.id);
  });

  it('a locally expired session is not sent: exit 4 with the reauth command', async () => {
    const old = await login(t);
    t.store().saveSession({ ...old, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const before = t.proxy.seen.length;
    const deps = t.deps();
    const error = await caught(refresh({ legacy: false }, deps));
    expect(exitCodeFor(error)).toBe(4);
    const reauth = `svc otp verify --credential ${t.emu.fixtures.credentialId}`;
    expect((error as { hint?: string }).hint).toContain(reauth);
    expect((error as Error).message).toMatch(/expired .* ago .*cannot be refreshed/);
    // Said once, by the error renderer: no warning lines repeating it first (and none under --json).
    expect(deps.stderr()).toBe('');
    expect(t.proxy.seen.length).toBe(before);
  });

  it('an expired session is reported as such even where no API credentials are configured', async () => {
    const old = await login(t);
    t.store().saveSession({ ...old, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const deps = t.deps({ env: { SERVICE_BASE_URL: '', SERVICE_API_TOKEN_ID: '', SERVICE_API_CLIENT_SECRET: '' } });
    const error = await caught(refresh({ legacy: false }, deps));
    expect(exitCodeFor(error)).toBe(4);
    expect((error as Error).message).toMatch(/cannot be refreshed/);
  });

  it('on a terminal, declining the offer is exit 4 without a request; --yes accepts it without asking', async () => {
    const old = await login(t);
    t.store().saveSession({ ...old, expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const before = t.proxy.seen.length;
    const declined = t.deps({ tty: true, answers: [false] });
    const error = await caught(refresh({ legacy: false }, declined));
    expect(exitCodeFor(error)).toBe(4);
    expect((error as { hint?: string }).hint).toContain(`svc otp verify --credential ${t.emu.fixtures.credentialId}`);
    expect(t.proxy.seen.length).toBe(before);

    const yes = t.deps({ tty: true, globals: { yes: true }, answers: ['000000'] });
    await refresh({ legacy: false }, yes);
    expect(yes.asked).toEqual([expect.stringMatching(/Enter the 6-digit code/)]);
    expect(activeSession(t)!.id).not.toBe(old.id);
  });

  it('on a terminal, an expired session offers to run otp verify, and accepting logs in again', async () => {
    const old = await login(t);
    t.store().saveSession({ ...old, expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const deps = t.deps({ tty: true, answers: [true, '000000'] });
    await refresh({ legacy: false }, deps);
    expect(deps.asked[0]).toMatch(/Run svc otp verify --credential/);
    const now = activeSession(t)!;
    expect(now.id).not.toBe(old.id);
    expect(Date.parse(now.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('a session the service expired answers 401: exit 4 with the reauth hint, old key kept', async () => {
    const old = await login(t);
    t.emu.testing.expireSession(old.id);
    const error = await caught(refresh({ legacy: false }, t.deps()));
    expect(exitCodeFor(error)).toBe(4);
    expect(hintFor(error as ApiError)).toMatch(/Re-authenticate: svc otp verify --credential AuthMethod:/);
    expect(activeSession(t)!.id).toBe(old.id);
  });

  it('a key the service does not recognise gives WALLET_SIGNATURE_INVALID, exit 4 and a matching hint', async () => {
    const old = await login(t);
    t.store().saveSession({ ...old, privateKey: generateKeyPair().privateKey });
    const error = (await caught(refresh({ legacy: false }, t.deps()))) as ApiError;
    expect(error.code).toBe('WALLET_SIGNATURE_INVALID');
    expect(exitCodeFor(error)).toBe(4);
    expect(hintFor(error)).toMatch(/does not recognise this session key/);
  });

  it('with no active session, exit 4 pointing at otp verify; a malformed id is exit 2', async () => {
    const f = await authEnv();
    try {
      const error = await caught(refresh({ legacy: false }, f.deps()));
      expect(exitCodeFor(error)).toBe(4);
      expect(hintFor(error as AuthRequiredError)).toMatch(
        /^Log in first: svc otp verify --credential <AuthMethod:id> \(or name one: svc session refresh/,
      );
      const bad = await caught(refresh({ session: 'Session:nope', legacy: false }, f.deps()));
      expect(exitCodeFor(bad)).toBe(2);
      expect(f.proxy.seen).toEqual([]);
    } finally {
      await f.close();
    }
  });
});
