/**
 * Passkey verify: a real WebAuthn assertion made with node:crypto, each check the spec lists, and
 * the legacy sandbox value sandbox-valid-passkey-signature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSessionSigningKey } from '../../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, testEmulator, type TestEmulator } from '../support.js';
import { assertion, passkeyPair, type AssertionKnobs } from '../../../helpers/webauthn-assertion.js';

let t: TestEmulator;
let pk: ReturnType<typeof passkeyPair>;
let cred: { id: string; credentialId: string };
beforeAll(async () => {
  t = await testEmulator();
  pk = passkeyPair();
  cred = t.emu.testing.addPasskeyCredential(pk.publicHex);
});
afterAll(() => t.close());

async function challenge(clientPublicKey?: string) {
  const answer = await t.call('POST', `/auth/credentials/${cred.id}/challenge`, {
    body: clientPublicKey ? { clientPublicKey } : {},
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    id: cred.id,
    type: 'PASSKEY',
    credentialId: cred.credentialId,
    requestId: expect.stringMatching(/^Request:/),
  });
  // The description's passkey challenge says until when it may be answered.
  expect(Date.parse(answer.body.expiresAt)).toBeGreaterThan(t.emu.testing.now());
  return answer.body as { challenge: string; requestId: string };
}

const verify = (requestId: string | undefined, a: object, extra: object = {}) =>
  t.call('POST', `/auth/credentials/${cred.id}/verify`, {
    body: { type: 'PASSKEY', assertion: a, ...extra },
    headers: requestId ? { 'request-id': requestId } : {},
  });

let counter = 0;
const nextCount = () => (counter += 1);

describe('passkey verify', () => {
  it('a real assertion gives a session whose key is sealed to clientPublicKey', async () => {
    const client = generateKeyPair();
    const c = await challenge(client.publicKey);
    const answer = await verify(
      c.requestId,
      assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge, signCount: nextCount() }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      type: 'PASSKEY',
      credentialId: cred.credentialId,
      accountId: t.emu.fixtures.accountId,
    });
    const sessionKey = await decryptSessionSigningKey(answer.body.encryptedSessionSigningKey, client.privateKey);
    // The sealed key is the session key: it can sign a refresh of that session.
    const next = generateKeyPair().publicKey;
    const r = await t.call('POST', `/auth/sessions/${answer.body.id}/refresh`, { body: { clientPublicKey: next } });
    const done = await t.call('POST', `/auth/sessions/${answer.body.id}/refresh`, {
      body: { clientPublicKey: next },
      headers: signedHeaders(r.body, sessionKey),
    });
    expect(done.status).toBe(201);
    expect(done.body.credentialId).toBe(cred.credentialId);
  });

  it('accepts the legacy sandbox-valid-passkey-signature (clientPublicKey on verify)', async () => {
    const c = await challenge();
    const a = {
      ...assertion(cred.credentialId, pk.privateKey, { challenge: 'whatever' }),
      signature: 'sandbox-valid-passkey-signature',
    };
    const answer = await verify(c.requestId, a, { clientPublicKey: generateKeyPair({ uncompressed: true }).publicKey });
    expect(answer.status).toBe(200);
    expect(typeof answer.body.encryptedSessionSigningKey).toBe('string');
  });

  const other = passkeyPair();
  it.each([
    ['a wrong challenge', { challenge: 'AAAA' }, /challenge/],
    ['a foreign origin', { origin: 'https://evil.example' }, /origin/],
    ['another relying party', { rpId: 'evil.example' }, /relying party/],
    ['no user presence', { flags: 0x04 }, /user-presence/],
    ['a non-increasing counter', { signCount: 0 }, /counter/],
    ['a create (not get) ceremony', { type: 'webauthn.create' }, /webauthn.get/],
    ['a signature by another key', { key: other.privateKey }, /signature/],
  ] as Array<[string, Partial<AssertionKnobs>, RegExp]>)('401 UNAUTHORIZED for %s', async (_name, knobs, reason) => {
    const c = await challenge(generateKeyPair().publicKey);
    const a = assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge, signCount: nextCount(), ...knobs });
    const answer = await verify(c.requestId, a);
    expect(answer.status).toBe(401);
    expect(errorShape(answer)).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringMatching(reason) });
  });

  it('a counter equal to the last accepted one is refused (a replayed or cloned authenticator); a higher one passes', async () => {
    const used = nextCount();
    const first = await challenge(generateKeyPair().publicKey);
    expect(
      (
        await verify(
          first.requestId,
          assertion(cred.credentialId, pk.privateKey, { challenge: first.challenge, signCount: used }),
        )
      ).status,
    ).toBe(200);
    const again = await challenge(generateKeyPair().publicKey);
    const same = await verify(
      again.requestId,
      assertion(cred.credentialId, pk.privateKey, { challenge: again.challenge, signCount: used }),
    );
    expect(errorShape(same)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/counter/),
    });
    const later = await challenge(generateKeyPair().publicKey);
    expect(
      (
        await verify(
          later.requestId,
          assertion(cred.credentialId, pk.privateKey, { challenge: later.challenge, signCount: nextCount() }),
        )
      ).status,
    ).toBe(200);
  });

  it('refuses an unregistered credential id, a reused challenge and a missing Request-Id', async () => {
    const c = await challenge(generateKeyPair().publicKey);
    const wrongId = await verify(c.requestId, {
      ...assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge }),
      credentialId: 'nope',
    });
    expect(errorShape(wrongId).reason).toMatch(/credentialId/);
    // An empty id is a string the description allows: refused as any other unregistered one.
    const next = await challenge(generateKeyPair().publicKey);
    const emptyId = await verify(next.requestId, {
      ...assertion(cred.credentialId, pk.privateKey, { challenge: next.challenge }),
      credentialId: '',
    });
    expect(errorShape(emptyId)).toMatchObject({ status: 401, reason: expect.stringMatching(/credentialId/) });
    const reused = await verify(
      c.requestId,
      assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge, signCount: nextCount() }),
    );
    expect(errorShape(reused).reason).toMatch(/pending passkey challenge/);
    const missing = await verify(undefined, assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge }));
    expect(errorShape(missing).code).toBe('REQUEST_ID_MISSING');
  });

  it('400, not 500, for a clientPublicKey that fits the pattern but is off the curve', async () => {
    const offCurve = `02${'ff'.repeat(32)}`;
    const onChallenge = await t.call('POST', `/auth/credentials/${cred.id}/challenge`, {
      body: { clientPublicKey: offCurve },
    });
    expect(errorShape(onChallenge)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'clientPublicKey' }] },
    });
    const c = await challenge();
    const a = {
      ...assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge }),
      signature: 'sandbox-valid-passkey-signature',
    };
    const onVerify = await verify(c.requestId, a, { clientPublicKey: offCurve });
    expect(errorShape(onVerify)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'clientPublicKey' }] },
    });
  });

  it('a 400 for a missing clientPublicKey leaves the challenge usable for the corrected request', async () => {
    const c = await challenge();
    const a = assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge, signCount: nextCount() });
    expect((await verify(c.requestId, a)).status).toBe(400);
    expect((await verify(c.requestId, a, { clientPublicKey: generateKeyPair().publicKey })).status).toBe(200);
  });

  it('400 when no clientPublicKey was given anywhere, or the assertion is incomplete', async () => {
    const c = await challenge();
    const noKey = await verify(
      c.requestId,
      assertion(cred.credentialId, pk.privateKey, { challenge: c.challenge, signCount: nextCount() }),
    );
    expect(errorShape(noKey).details.errors[0].field).toBe('clientPublicKey');
    const partial = await verify(c.requestId, { credentialId: 5 });
    expect(errorShape(partial).details.errors.map((e: { field: string }) => e.field)).toEqual([
      'assertion.clientDataJson',
      'assertion.authenticatorData',
      'assertion.signature',
      'assertion.credentialId',
    ]);
  });
});
