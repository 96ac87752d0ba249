/**
 * `svc login otp|oauth|passkey` and `svc credentials list|add|remove` through run() with fake IO,
 * against a real emulator behind a recording proxy: the whole life of an account's credentials,
 * real WebAuthn and OIDC checks on the other side, and every refusal before a request.
 */
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as loginOtp } from '../../../commands/login/otp.js';
import { run as loginOauth } from '../../../commands/login/oauth.js';
import { run as loginPasskey } from '../../../commands/login/passkey.js';
import { run as credentialsList } from '../../../commands/credentials/list.js';
import { run as credentialsAdd } from '../../../commands/credentials/add.js';
import { run as credentialsRemove } from '../../../commands/credentials/remove.js';
import { run as sessionRefresh } from '../../../commands/session/refresh.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { UsageError } from '../../../src/errors.js';
import { mintSandboxToken, SANDBOX_IDENTITY } from '../../../src/auth/oidc-token.js';
import { passkeyFolder } from '../../../src/auth/kept-keys.js';
import { authEnv, leakedSecrets, type AuthEnv } from './support.js';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { activeSession, caught } from './login.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

const json = () => t.deps({ globals: { json: true } });
const add = (type: string, extra: Record<string, unknown> = {}, deps = json()) =>
  credentialsAdd(
    { type, rpId: 'localhost', origin: 'http://localhost', software: false, sandboxToken: false, ...extra },
    deps,
  ).then(() => deps);
const out = (deps: { stdout(): string }) => JSON.parse(deps.stdout());

describe("the life of an account's credentials", () => {
  let passkeyId: string;
  let oauthId: string;

  it('login otp is otp verify: the session is stored and active', async () => {
    const deps = json();
    await loginOtp({ credential: t.emu.fixtures.credentialId, code: '000000' }, deps);
    expect(out(deps)).toMatchObject({ type: 'EMAIL_OTP', keyStored: true });
    expect(activeSession(t)!.credentialId).toBe(t.emu.fixtures.credentialId);
  });

  it('credentials add passkey --software: a signed add, the passkey kept 0600 like a session key', async () => {
    const before = t.proxy.count('/auth/credentials', true);
    const deps = await add('passkey', { software: true, nickname: 'CI runner' });
    const made = out(deps);
    expect(made).toMatchObject({
      type: 'PASSKEY',
      nickname: 'CI runner',
      accountId: t.emu.fixtures.accountId,
      softwarePasskeyStored: true,
      credentialId: expect.any(String),
    });
    expect(t.proxy.count('/auth/credentials', true) - before).toBe(1); // signed by the OTP session
    passkeyId = made.id;
    const kept = passkeyFolder(t.configDir).get(passkeyId)!;
    expect(kept.credentialId).toBe(made.credentialId);
    const dir = join(t.configDir, 'passkeys');
    expect(readdirSync(dir).map((f) => statSync(join(dir, f)).mode & 0o777)).toEqual([0o600]);
    expect(leakedSecrets(deps.stdout() + deps.stderr(), [kept.privateKey])).toEqual([]);
  });

  it('login passkey makes a real assertion; the counter is kept and a second login works', async () => {
    for (const round of [1, 2]) {
      const deps = json();
      await loginPasskey({}, deps);
      const session = out(deps);
      expect(session).toMatchObject({
        type: 'PASSKEY',
        credentialId: passkeyFolder(t.configDir).get(passkeyId)!.credentialId,
        keyStored: true,
      });
      expect(activeSession(t)).toMatchObject({ id: session.id, credentialId: passkeyId });
      expect(passkeyFolder(t.configDir).get(passkeyId)!.signCount).toBe(round);
      expect(session.encryptedSessionSigningKey).toBeUndefined();
    }
  });

  it('an expired passkey session points at svc login passkey, not at the OTP login', async () => {
    const store = t.store();
    const stored = activeSession(t)!;
    store.saveSession({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() });
    const error = await caught(sessionRefresh({ legacy: false }, t.deps({ tty: true })));
    expect(exitCodeFor(error)).toBe(4);
    expect((error as { hint?: string }).hint).toBe(`Re-authenticate: svc login passkey --credential ${passkeyId}`);
    store.saveSession(stored);
  });

  it('credentials add oauth --sandbox-token, then login oauth --sandbox-token with the same default identity', async () => {
    const deps = await add('oauth', { sandboxToken: true, email: 'ada@example.test' });
    const made = out(deps);
    expect(made).toMatchObject({ type: 'OAUTH', nickname: 'ada@example.test' });
    oauthId = made.id;
    const login = json();
    await loginOauth({ credential: oauthId, sandboxToken: true, nonce: false, legacy: false }, login);
    expect(out(login)).toMatchObject({ type: 'OAUTH', keyStored: true });
    expect(activeSession(t)!.credentialId).toBe(oauthId);
  });

  it.each([
    ['the compressed client key is the session key (client-held-key model)', false],
    ['--legacy: an uncompressed client key, the session key sealed to it', true],
  ])("login oauth --sandbox-token, %s: the stored key signs the session's refresh", async (_row, legacy) => {
    const login = json();
    await loginOauth({ credential: oauthId, sandboxToken: true, nonce: false, legacy }, login);
    expect(out(login)).toMatchObject({ type: 'OAUTH', keyStored: true });
    const held = activeSession(t)!;
    expect(held.credentialId).toBe(oauthId);
    const refreshed = json();
    await sessionRefresh({ legacy: false }, refreshed);
    expect(activeSession(t)!.id).not.toBe(held.id);
    expect(activeSession(t)!.credentialId).toBe(oauthId);
  });

  it('login oauth --nonce keeps the client key; --token - with a token carrying that nonce logs in', async () => {
    const first = json();
    await loginOauth({ credential: oauthId, nonce: true, sandboxToken: false, legacy: false }, first);
    const { nonce, clientPublicKey } = out(first);
    expect(nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(clientPublicKey).toMatch(/^0[23]/);
    const token = mintSandboxToken(SANDBOX_IDENTITY, { nowMs: Date.now(), nonce });
    const second = t.deps({ globals: { json: true }, stdin: `${token}\n` });
    await loginOauth({ credential: oauthId, token: '-', nonce: false, sandboxToken: false, legacy: false }, second);
    expect(out(second)).toMatchObject({ type: 'OAUTH' });
    // The kept key was used once and forgotten.
    expect(readdirSync(join(t.configDir, 'pending-oauth'))).toEqual([]);
  });

  it('on a terminal without --token, the nonce is shown and the pasted token logs in', async () => {
    let shown = '';
    const deps = t.deps({
      tty: true,
      answers: (message) => {
        expect(message).toMatch(/ID token/);
        shown = /nonce ([0-9a-f]{64})/.exec(deps.stderr())![1]!;
        return mintSandboxToken(SANDBOX_IDENTITY, { nowMs: Date.now(), nonce: shown });
      },
    });
    await loginOauth({ credential: oauthId, nonce: false, sandboxToken: false, legacy: false }, deps);
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    expect(deps.stdout()).toMatch(/Credential: OAUTH/);
    expect(deps.asked).toHaveLength(1);
  });

  it("a token whose nonce is not the kept key's is refused with exit 2 before any verify", async () => {
    await loginOauth({ credential: oauthId, nonce: true, sandboxToken: false, legacy: false }, json());
    const before = t.proxy.count('/verify');
    const stray = mintSandboxToken(SANDBOX_IDENTITY, { nowMs: Date.now(), nonce: 'f'.repeat(64) });
    const error = await caught(
      loginOauth({ credential: oauthId, token: stray, nonce: false, sandboxToken: false, legacy: false }, json()),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as UsageError).message).toMatch(/nonce/);
    expect(t.proxy.count('/verify')).toBe(before);
  });

  it("credentials add sms takes the fixture customer's phone; list shows every type, marking the software passkey", async () => {
    const made = out(await add('sms'));
    expect(made).toMatchObject({ type: 'SMS_OTP', nickname: t.emu.fixtures.phoneNumber }); // the fixture customer's
    expect(made.otpEncryptionTargetBundle).toBeUndefined();
    const deps = json();
    await credentialsList({}, deps);
    const rows = out(deps).data as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.type).sort()).toEqual(['EMAIL_OTP', 'OAUTH', 'PASSKEY', 'SMS_OTP']);
    expect(rows.find((r) => r.id === passkeyId)).toMatchObject({ softwarePasskeyHeld: true });
    const text = t.deps();
    await credentialsList({ account: t.emu.fixtures.accountId }, text);
    expect(text.stdout()).toMatch(/PASSKEY\s+CI runner.*software passkey/);
  });

  it("credentials remove --yes: signed by another credential's session; local passkey and session keys go", async () => {
    // The active session is the OAuth one: it approves removing the passkey.
    const passkeySessions = t
      .store()
      .listSessions()
      .filter((s) => s.credentialId === passkeyId).length;
    expect(passkeySessions).toBe(2);
    const deps = t.deps({ globals: { json: true, yes: true } });
    await credentialsRemove({ credential: passkeyId }, deps);
    expect(out(deps)).toEqual({ id: passkeyId, removed: true, sessionKeysForgotten: 2, passkeyForgotten: true });
    expect(passkeyFolder(t.configDir).get(passkeyId)).toBeUndefined();
    const list = json();
    await credentialsList({}, list);
    expect(out(list).data.map((r: { id: string }) => r.id)).not.toContain(passkeyId);
  });

  /** The internal account of a new customer: an account with no credential yet. */
  async function newAccount(fullName: string, email: string): Promise<string> {
    const authorization = `Basic ${Buffer.from(`${t.emu.apiTokenId}:${t.emu.apiClientSecret}`).toString('base64')}`;
    const customer = await request(`${t.emu.baseUrl}/customers`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName, email }),
    });
    const customerId = ((await customer.body.json()) as { id: string }).id;
    const accounts = await request(`${t.emu.baseUrl}/internal-accounts?customerId=${customerId}`, {
      headers: { authorization },
    });
    return ((await accounts.body.json()) as { data: Array<{ id: string }> }).data[0]!.id;
  }

  it('a session of another account does not sign an add for this one: exit 4, no signed retry sent', async () => {
    const accountId = await newAccount('Other Person', 'other@example.test');
    // Its first credential needs no signature; the second one would.
    await add('email', { account: accountId });
    const signedBefore = t.proxy.count('/auth/credentials', true);
    const error = await caught(add('oauth', { account: accountId, sandboxToken: true }));
    expect(exitCodeFor(error)).toBe(4);
    expect((error as Error).message).toMatch(/no session key of that account/);
    expect(t.proxy.count('/auth/credentials', true)).toBe(signedBefore);
  });

  it('an expired active session stops only what it would sign: a list and a first credential go ahead', async () => {
    const accountId = await newAccount('Third Person', 'third@example.test');
    const store = t.store();
    const stored = activeSession(t)!;
    store.saveSession({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() });
    try {
      const listed = json();
      await credentialsList({ account: accountId }, listed);
      expect(out(listed)).toEqual({ data: [] });
      expect(out(await add('email', { account: accountId }))).toMatchObject({ type: 'EMAIL_OTP', accountId });

      // A second credential of the session's own account is approved by a signature: refused at the challenge.
      const signedBefore = t.proxy.count('/auth/credentials', true);
      const error = await caught(add('passkey', { software: true }));
      expect(exitCodeFor(error)).toBe(4);
      expect((error as Error).message).toMatch(new RegExp(`^${stored.id} expired at .*; it cannot sign\\.$`));
      expect(t.proxy.count('/auth/credentials', true)).toBe(signedBefore);
    } finally {
      store.saveSession(stored);
    }
  });

  it("the active session's own credential cannot approve its removal: exit 2 naming --session, nothing sent", async () => {
    const before = t.proxy.seen.length;
    const error = await caught(credentialsRemove({ credential: oauthId }, t.deps({ globals: { yes: true } })));
    expect(exitCodeFor(error)).toBe(2);
    expect((error as UsageError).input).toBe('--session');
    expect(t.proxy.seen.length).toBe(before);
  });
});

describe('refusals before any request (exit 2)', () => {
  it.each([
    ['an unknown type', () => add('fax'), '<type>'],
    ['a passkey without --software', () => add('passkey'), '--software'],
    ['an oauth credential without a token', () => add('oauth'), '--token'],
    ['--token for an email credential', () => add('email', { token: 'a.b.c' }), '--token'],
    ['a bad passkey nickname', () => add('passkey', { software: true, nickname: '<script>' }), '--nickname'],
    ['--subject without --sandbox-token', () => add('oauth', { token: 'a.b.c', subject: 'x' }), '--subject'],
    [
      'login oauth without --token in CI',
      () =>
        loginOauth(
          {
            credential: 'AuthMethod:00000000-0000-4000-8000-000000000000',
            nonce: false,
            sandboxToken: false,
            legacy: false,
          },
          t.deps({ env: { CI: 'true' } }),
        ),
      '--token',
    ],
    [
      'login oauth with --nonce and --sandbox-token',
      () =>
        loginOauth(
          {
            credential: 'AuthMethod:00000000-0000-4000-8000-000000000000',
            nonce: true,
            sandboxToken: true,
            legacy: false,
          },
          json(),
        ),
      '--nonce',
    ],
    [
      'remove without --yes where svc cannot ask',
      () => credentialsRemove({ credential: 'AuthMethod:00000000-0000-4000-8000-000000000000' }, t.deps()),
      '--yes',
    ],
    ['a malformed credential id', () => loginPasskey({ credential: 'nope' }, json()), '--credential'],
    [
      'credentials list with no --account and no session',
      () => credentialsList({}, t.deps({ env: { SERVICE_CLI_CONFIG_DIR: tempConfigDir() } })),
      '--account',
    ],
  ] as Array<[string, () => Promise<unknown>, string]>)('%s', async (_name, call, field) => {
    const before = t.proxy.seen.length;
    const error = await caught(call());
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).input).toBe(field);
    expect(t.proxy.seen.length).toBe(before);
  });
});

describe('signed add and remove follow 200 PROCESSING to the answer', () => {
  it('with --processing-retries 2 the add settles to 201 and the remove to 204', async () => {
    const f = await authEnv({ processingRetries: 2 });
    try {
      await loginOtp({ credential: f.emu.fixtures.credentialId, code: '000000' }, f.deps());
      const deps = f.deps({ globals: { json: true } });
      await credentialsAdd(
        { type: 'oauth', sandboxToken: true, software: false, rpId: 'localhost', origin: 'http://localhost' },
        deps,
      );
      const made = JSON.parse(deps.stdout());
      expect(made.type).toBe('OAUTH');
      // Two PROCESSING answers, then the settled one: three signed retries of the add.
      expect(f.proxy.count('/auth/credentials', true)).toBe(3);
      await credentialsRemove({ credential: made.id }, f.deps({ globals: { yes: true } }));
      expect(f.proxy.count(`/auth/credentials/${made.id}`, true)).toBe(3);
    } finally {
      await f.close();
    }
  });
});
