/**
 * OAuth credentials over HTTP, row by row of the spec's "Auth magic values" (OAuth): registration
 * checks iss (two providers' issuer forms), aud (string or one-element array), sub, iat (at most
 * 60 s old with 5 s skew, on the emulator clock) and exp; a malformed token and the old literal
 * are 400 INVALID_INPUT; verify needs the same identity and nonce = SHA-256 hex of the exact
 * clientPublicKey; a compressed key becomes the session's own key (nothing sealed), an uncompressed
 * one gets the session key sealed to it.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSessionSigningKey } from '../../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { claims, jwt, newWallet, signedCall, type Wallet } from './support.js';
import { errorShape, signedHeaders, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator();
const now = () => t.emu.testing.now();
const nonce = (key: string) => createHash('sha256').update(key).digest('hex');

/** Registration on a fresh wallet: its first credential, so one call (no signed step to muddle the row). */
async function register(overrides: Record<string, unknown> = {}, token?: string) {
  const wallet = await newWallet(t);
  const answer = await t.call('POST', '/auth/credentials', {
    body: { type: 'OAUTH', accountId: wallet.accountId, oidcToken: token ?? jwt(claims(now(), overrides)) },
  });
  return { wallet, answer };
}

describe('OAuth registration', () => {
  it.each([
    ['Google, https form', { iss: 'https://accounts.google.com' }],
    ['Google, bare form', { iss: 'accounts.google.com' }],
    ['Apple', { iss: 'https://appleid.apple.com' }],
    ['aud as a one-element array', { aud: ['svc-sandbox-client'] }],
    ['iat 62 s old (within 60 s + 5 s skew)', {}, 62],
    ['iat 4 s in the future (skew)', { iat: 'future4' }],
  ] as Array<[string, Record<string, unknown>, number?]>)('accepts %s', async (_name, overrides, ageSeconds) => {
    const at = now();
    const c = claims(at, overrides);
    if (overrides.iat === 'future4') c.iat = Math.floor(at / 1000) + 4;
    const wallet = await newWallet(t);
    if (ageSeconds) t.emu.testing.advanceClock(ageSeconds * 1000);
    const answer = await t.call('POST', '/auth/credentials', {
      body: { type: 'OAUTH', accountId: wallet.accountId, oidcToken: jwt(c) },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ type: 'OAUTH', accountId: wallet.accountId, nickname: 'grace@example.test' });
  });

  it('an account that has a credential adds OAuth through the signed retry', async () => {
    const body = {
      type: 'OAUTH',
      accountId: t.emu.fixtures.accountId,
      oidcToken: jwt(claims(now(), { email: undefined, sub: 'only-sub' })),
    };
    const { first, retry } = await signedCall(t, 'POST', '/auth/credentials', body, login.privateKey);
    expect(first.body.type).toBe('OAUTH');
    expect(retry.status).toBe(201);
    // Without an email claim the nickname is the subject.
    expect(retry.body).toMatchObject({ type: 'OAUTH', nickname: 'only-sub' });
  });

  it.each([
    ['the old literal sandbox-valid-oidc-token', 'sandbox-valid-oidc-token', 'oidcToken', /no longer accepted/],
    ['two segments', 'abc.def', 'oidcToken', /three base64url segments/],
    [
      'claims that are not JSON',
      `${Buffer.from('{}').toString('base64url')}.bm90LWpzb24.sig`,
      'oidcToken',
      /claims segment/,
    ],
    [
      'an unsupported issuer',
      jwt(claims(Date.now(), { iss: 'https://login.example.com' })),
      'oidcToken.iss',
      /not a supported issuer/,
    ],
    ['a two-element aud', jwt(claims(Date.now(), { aud: ['a', 'b'] })), 'oidcToken.aud', /one-element/],
    ['an empty aud', jwt(claims(Date.now(), { aud: '' })), 'oidcToken.aud', /non-empty/],
    ['no sub', jwt(claims(Date.now(), { sub: undefined })), 'oidcToken.sub', /sub/],
    ['a string iat', jwt(claims(Date.now(), { iat: 'yesterday' })), 'oidcToken.iat', /number/],
    ['no exp', jwt(claims(Date.now(), { exp: undefined })), 'oidcToken.exp', /number/],
  ])('400 INVALID_INPUT for %s', async (_name, token, field, message) => {
    const { answer } = await register({}, token);
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field, message: expect.stringMatching(message) }] },
    });
  });

  it('lists every bad claim at once', async () => {
    const { answer } = await register({}, jwt({ iss: 'nope', aud: [], iat: 'x' }));
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'oidcToken.iss',
      'oidcToken.aud',
      'oidcToken.sub',
      'oidcToken.iat',
      'oidcToken.exp',
    ]);
  });

  it('401 when iat is 66 s old on the emulator clock (60 s + 5 s skew passed)', async () => {
    const token = jwt(claims(now()));
    const wallet = await newWallet(t);
    t.emu.testing.advanceClock(66_000);
    const answer = await t.call('POST', '/auth/credentials', {
      body: { type: 'OAUTH', accountId: wallet.accountId, oidcToken: token },
    });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/more than 60 seconds old/),
    });
  });

  it('401 for an iat 10 s in the future (beyond the 5 s skew) and for an exp already past', async () => {
    const future = await register({ iat: Math.floor(now() / 1000) + 10 });
    expect(errorShape(future.answer)).toMatchObject({ status: 401, reason: expect.stringMatching(/future/) });
    const expired = await register({ exp: Math.floor(now() / 1000) - 1 });
    expect(errorShape(expired.answer)).toMatchObject({ status: 401, reason: expect.stringMatching(/expired/) });
  });
});

describe('OAuth verify', () => {
  let wallet: Wallet;
  let credentialId: string;
  beforeAll(async () => {
    const made = await register({ sub: 'verify-user' });
    wallet = made.wallet;
    credentialId = made.answer.body.id;
  });
  const verify = (body: Record<string, unknown>) =>
    t.call('POST', `/auth/credentials/${credentialId}/verify`, { body: { type: 'OAUTH', ...body } });
  const tokenFor = (clientPublicKey: string, overrides: Record<string, unknown> = {}) =>
    jwt(claims(now(), { sub: 'verify-user', nonce: nonce(clientPublicKey), ...overrides }));

  /** The session key signs the session's own refresh: proof that the key is the session's. */
  async function signsRefresh(sessionId: string, sessionKey: string): Promise<number> {
    const next = generateKeyPair().publicKey;
    const first = await t.call('POST', `/auth/sessions/${sessionId}/refresh`, { body: { clientPublicKey: next } });
    const done = await t.call('POST', `/auth/sessions/${sessionId}/refresh`, {
      body: { clientPublicKey: next },
      headers: signedHeaders(first.body, sessionKey),
    });
    return done.status;
  }

  // Spec Authentication 4: the key's form picks the model, as on refresh (flow rules 4 and 5).
  it.each([
    ['compressed: the client-held key, nothing sealed', false],
    ['uncompressed: the legacy flow, the session key sealed to it', true],
  ])('a fresh token bound to a clientPublicKey, %s', async (_row, uncompressed) => {
    const client = generateKeyPair({ uncompressed });
    const answer = await verify({ oidcToken: tokenFor(client.publicKey), clientPublicKey: client.publicKey });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^Session:/),
      accountId: wallet.accountId,
      type: 'OAUTH',
      expiresAt: expect.any(String),
    });
    if (uncompressed) {
      const sessionKey = await decryptSessionSigningKey(answer.body.encryptedSessionSigningKey, client.privateKey);
      expect(sessionKey).not.toBe(client.privateKey);
      expect(await signsRefresh(answer.body.id, sessionKey)).toBe(201);
      // The client key that only opened the seal is not the session's.
      expect(await signsRefresh(answer.body.id, client.privateKey)).toBe(401);
    } else {
      expect(answer.body).not.toHaveProperty('encryptedSessionSigningKey');
      expect(await signsRefresh(answer.body.id, client.privateKey)).toBe(201);
    }
  });

  it.each([
    ['another subject', { sub: 'someone-else' }, /sub does not match/],
    ['another supported issuer', { iss: 'https://appleid.apple.com' }, /iss does not match/],
    ['another audience', { aud: 'other-client' }, /aud does not match/],
    ['no nonce', { nonce: undefined }, /no nonce/],
    ['the nonce of another key', { nonce: nonce(generateKeyPair().publicKey) }, /nonce/],
  ])('401 UNAUTHORIZED for %s', async (_name, overrides, reason) => {
    const client = generateKeyPair();
    const answer = await verify({
      oidcToken: tokenFor(client.publicKey, overrides),
      clientPublicKey: client.publicKey,
    });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(reason),
    });
  });

  it('the nonce binds the exact string: the same key in upper case is another nonce', async () => {
    const client = generateKeyPair();
    const answer = await verify({
      oidcToken: tokenFor(client.publicKey),
      clientPublicKey: client.publicKey.toUpperCase(),
    });
    expect(errorShape(answer)).toMatchObject({ status: 401, reason: expect.stringMatching(/nonce/) });
  });

  it('a token that was fresh is refused 66 s later (clock advanced)', async () => {
    const client = generateKeyPair();
    const token = tokenFor(client.publicKey);
    t.emu.testing.advanceClock(66_000);
    const answer = await verify({ oidcToken: token, clientPublicKey: client.publicKey });
    expect(errorShape(answer)).toMatchObject({ status: 401, reason: expect.stringMatching(/60 seconds/) });
  });

  it('400 for a malformed token or a missing clientPublicKey; OAuth has no challenge step', async () => {
    expect(
      errorShape(await verify({ oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: generateKeyPair().publicKey })),
    ).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const missing = await verify({ oidcToken: tokenFor(generateKeyPair().publicKey) });
    expect(errorShape(missing)).toMatchObject({ status: 400, details: { errors: [{ field: 'clientPublicKey' }] } });
    const challenge = await t.call('POST', `/auth/credentials/${credentialId}/challenge`, { body: {} });
    expect(errorShape(challenge)).toMatchObject({ status: 400, message: expect.stringMatching(/no challenge step/) });
  });
});
