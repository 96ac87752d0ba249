/**
 * POST /auth/sessions/{id}/refresh against the spec's status table and every 401 condition, over
 * real HTTP with real stamps. Each case gets its own fresh challenge.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStamp } from '../../../../src/crypto/stamp.js';
import { decompressPublicKey, generateKeyPair } from '../../../../src/crypto/keys.js';
import {
  errorShape,
  otpLogin,
  signedHeaders,
  testEmulator,
  useLoggedInEmulator,
  type TestEmulator,
} from '../support.js';

const SPEC_PATTERN = '^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$';
const b64url = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');

const { t, login } = useLoggedInEmulator();

const path = (id: string) => `/auth/sessions/${id}/refresh`;

async function challenge(sessionId: string, clientPublicKey: string) {
  const answer = await t.call('POST', path(sessionId), { body: { clientPublicKey } });
  expect(answer.status).toBe(202);
  return answer.body as { payloadToSign: string; requestId: string; expiresAt: string };
}

const signed = (challenge: { payloadToSign: string; requestId: string }, privateKey = login.privateKey) =>
  signedHeaders(challenge, privateKey);

describe('refresh: success rows', () => {
  it('202: the initial call binds clientPublicKey into the refresh payload (src/crypto/README.md)', async () => {
    const next = generateKeyPair();
    const c = await challenge(login.sessionId, next.publicKey);
    expect(c.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    expect(Date.parse(c.expiresAt)).toBeGreaterThan(Date.now());
    const payload = JSON.parse(c.payloadToSign);
    expect(Object.keys(payload)).toEqual(['organizationId', 'parameters', 'timestampMs', 'type']);
    expect(payload.parameters).toEqual({ targetPublicKey: next.publicKey });
    expect(payload.type).toBe('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2');
    expect(payload.timestampMs).toMatch(/^\d+$/);
    expect(typeof payload.organizationId).toBe('string');
  });

  it('201: a compressed key becomes the new session key, no key material returned', async () => {
    const next = generateKeyPair();
    const c = await challenge(login.sessionId, next.publicKey);
    const body = { clientPublicKey: next.publicKey };
    const done = await t.call('POST', path(login.sessionId), { body, headers: signed(c) });
    expect(done.status).toBe(201);
    expect(done.body.id).toMatch(/^Session:/);
    expect(done.body.id).not.toBe(login.sessionId);
    expect(done.body).not.toHaveProperty('encryptedSessionSigningKey');
    expect(done.body).toMatchObject({
      accountId: t.emu.fixtures.accountId,
      type: 'EMAIL_OTP',
      nickname: t.emu.fixtures.email,
    });
    // The new key is bound: it can sign a refresh of the new session; the old session stays valid.
    const again = await challenge(done.body.id, generateKeyPair().publicKey);
    const retry = await t.call('POST', path(done.body.id), {
      body: { clientPublicKey: JSON.parse(again.payloadToSign).parameters.targetPublicKey },
      headers: signed(again, next.privateKey),
    });
    expect(retry.status).toBe(201);
    const list = await t.call('GET', `/auth/sessions?accountId=${t.emu.fixtures.accountId}`);
    const ids = list.body.data.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([login.sessionId, done.body.id, retry.body.id]));
  });

  it('201 again for a byte-identical re-send after settling (idempotent)', async () => {
    const next = generateKeyPair();
    const c = await challenge(login.sessionId, next.publicKey);
    const options = { body: JSON.stringify({ clientPublicKey: next.publicKey }), headers: signed(c) };
    const first = await t.call('POST', path(login.sessionId), options);
    const second = await t.call('POST', path(login.sessionId), options);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
  });

  it('accepts the legacy wallet signature value sandbox-valid-signature', async () => {
    const next = generateKeyPair();
    const c = await challenge(login.sessionId, next.publicKey);
    const done = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: next.publicKey },
      headers: { 'service-wallet-signature': 'sandbox-valid-signature', 'request-id': c.requestId },
    });
    expect(done.status).toBe(201);
  });
});

describe('refresh: 400 and 404', () => {
  const offCurve = `02${'ff'.repeat(32)}`;
  it.each([
    ['missing', {}],
    ['a number', { clientPublicKey: 42 }],
    ['not hex', { clientPublicKey: 'zz' }],
    ['65 hex', { clientPublicKey: `02${'a'.repeat(63)}` }],
    ['wrong prefix', { clientPublicKey: `05${'a'.repeat(64)}` }],
    ['off the curve', { clientPublicKey: offCurve }],
  ])('400 INVALID_INPUT for a clientPublicKey that is %s', async (_name, body) => {
    const answer = await t.call('POST', path(login.sessionId), { body });
    expect(answer.status).toBe(400);
    const error = errorShape(answer);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details.errors).toHaveLength(1);
    // A string that breaks the rule is told the pattern; a missing or non-string key, that it is required or a string.
    const named = typeof (body as { clientPublicKey?: unknown }).clientPublicKey === 'string';
    expect(error.details.errors[0]).toMatchObject(
      named ? { field: 'clientPublicKey', constraint: { pattern: SPEC_PATTERN } } : { field: 'clientPublicKey' },
    );
    expect(typeof error.details.errors[0].message).toBe('string');
  });

  it('400 on the signed retry too, before any signature check', async () => {
    const c = await challenge(login.sessionId, generateKeyPair().publicKey);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: 'nope' },
      headers: signed(c),
    });
    expect(answer.status).toBe(400);
  });

  it.each([`Session:${randomUUID()}`, 'not-a-session'])('404 for unknown session %s', async (id) => {
    const answer = await t.call('POST', path(id), { body: { clientPublicKey: generateKeyPair().publicKey } });
    expect(answer.status).toBe(404);
    expect(errorShape(answer).message).toContain(id);
  });
});

describe('refresh: 401 conditions', () => {
  const expect401 = (answer: Awaited<ReturnType<TestEmulator['call']>>, code: string, reason?: RegExp) => {
    expect(answer.status).toBe(401);
    const error = errorShape(answer);
    expect(error.code).toBe(code);
    expect(typeof error.reason).toBe('string');
    if (reason) expect(error.reason).toMatch(reason);
  };

  it.each([
    ['no Authorization header', false as const, /Missing HTTP Basic/],
    ['a wrong client secret', `Basic ${b64url('x:y')}`, /Invalid API token/],
    ['a bearer token', 'Bearer abc', /Basic credentials only/],
    ['garbage', 'Basic', /Invalid API token/],
  ])('UNAUTHORIZED with %s', async (_name, auth, reason) => {
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: generateKeyPair().publicKey },
      auth,
    });
    expect401(answer, 'UNAUTHORIZED', reason);
    expect(answer.headers['www-authenticate']).toContain('Basic');
  });

  it('WALLET_SIGNATURE_MISSING: Request-Id without a signature', async () => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    expect401(
      await t.call('POST', path(login.sessionId), {
        body: { clientPublicKey: key },
        headers: { 'request-id': c.requestId },
      }),
      'WALLET_SIGNATURE_MISSING',
    );
  });

  it('WALLET_SIGNATURE_MISSING: both headers present but empty count as a retry, not an initial call', async () => {
    const key = generateKeyPair().publicKey;
    await challenge(login.sessionId, key);
    const headers = { 'service-wallet-signature': '', 'request-id': '' };
    expect401(
      await t.call('POST', path(login.sessionId), { body: { clientPublicKey: key }, headers }),
      'WALLET_SIGNATURE_MISSING',
    );
  });

  it('a retry-looking call with neither header is a new initial call; the first challenge stays good', async () => {
    const key = generateKeyPair().publicKey;
    const first = await challenge(login.sessionId, key);
    const second = await challenge(login.sessionId, key);
    expect(second.requestId).not.toBe(first.requestId);
    expect(
      (await t.call('POST', path(login.sessionId), { body: { clientPublicKey: key }, headers: signed(first) })).status,
    ).toBe(201);
  });

  it('REQUEST_ID_MISSING: a signature without Request-Id', async () => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const headers = { 'service-wallet-signature': createStamp(c.payloadToSign, login.privateKey) };
    expect401(
      await t.call('POST', path(login.sessionId), { body: { clientPublicKey: key }, headers }),
      'REQUEST_ID_MISSING',
    );
  });

  it.each([
    ['not base64url', 'not base64!!'],
    ['not JSON', b64url('hello')],
    ['missing fields', b64url({ publicKey: 'x' })],
    [
      'a wrong scheme',
      b64url({ publicKey: generateKeyPair().publicKey, scheme: 'OTHER', signature: '3006020101020101' }),
    ],
    [
      'a bad key',
      b64url({ publicKey: '02abc', scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3006020101020101' }),
    ],
    [
      'non-DER signature',
      b64url({ publicKey: generateKeyPair().publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: 'abcd' }),
    ],
  ])('WALLET_SIGNATURE_MALFORMED: %s', async (_name, header) => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: { 'service-wallet-signature': header, 'request-id': c.requestId },
    });
    expect401(answer, 'WALLET_SIGNATURE_MALFORMED');
  });

  it('WALLET_SIGNATURE_MALFORMED: a valid signature whose stamp names the session key uncompressed', async () => {
    // src/crypto/README.md: the stamp carries the compressed key, the form the session key is registered in.
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const stamp = JSON.parse(Buffer.from(createStamp(c.payloadToSign, login.privateKey), 'base64url').toString('utf8'));
    const header = b64url({ ...stamp, publicKey: decompressPublicKey(stamp.publicKey) });
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: { 'service-wallet-signature': header, 'request-id': c.requestId },
    });
    expect401(answer, 'WALLET_SIGNATURE_MALFORMED', /compressed/);
  });

  it('WALLET_SIGNATURE_INVALID: a key that belongs to no session', async () => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: signed(c, generateKeyPair().privateKey),
    });
    expect401(answer, 'WALLET_SIGNATURE_INVALID');
  });

  it('WALLET_SIGNATURE_INVALID: the right key over a different payload', async () => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const tampered = c.payloadToSign.replace('"timestampMs":"', '"timestampMs":"1');
    const headers = { 'service-wallet-signature': createStamp(tampered, login.privateKey), 'request-id': c.requestId };
    expect401(
      await t.call('POST', path(login.sessionId), { body: { clientPublicKey: key }, headers }),
      'WALLET_SIGNATURE_INVALID',
    );
  });

  it('WALLET_SIGNATURE_INVALID: an active session key of another wallet', async () => {
    const customer = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Other Wallet' },
    });
    const accounts = await t.call('GET', `/internal-accounts?customerId=${customer.body.id}`);
    const stranger = generateKeyPair();
    t.emu.testing.createSession(stranger.publicKey, { accountId: accounts.body.data[0].id });
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: signed(c, stranger.privateKey),
    });
    expect401(answer, 'WALLET_SIGNATURE_INVALID');
  });

  it('WALLET_SIGNATURE_INVALID: the key of an expired session of the same wallet', async () => {
    const old = generateKeyPair();
    const oldSession = t.emu.testing.createSession(old.publicKey) as { id: string };
    t.emu.testing.expireSession(oldSession.id);
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: signed(c, old.privateKey),
    });
    expect401(answer, 'WALLET_SIGNATURE_INVALID');
  });

  it('WALLET_SIGNATURE_BODY_MISMATCH: the retry carries another clientPublicKey', async () => {
    const c = await challenge(login.sessionId, generateKeyPair().publicKey);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: generateKeyPair().publicKey },
      headers: signed(c),
    });
    expect401(answer, 'WALLET_SIGNATURE_BODY_MISMATCH');
  });

  it('UNAUTHORIZED: a Request-Id that matches no pending challenge', async () => {
    const key = generateKeyPair().publicKey;
    const c = await challenge(login.sessionId, key);
    const answer = await t.call('POST', path(login.sessionId), {
      body: { clientPublicKey: key },
      headers: signed({ ...c, requestId: `Request:${randomUUID()}` }),
    });
    expect401(answer, 'UNAUTHORIZED', /does not match a pending challenge/);
    // Not a Basic failure, so no WWW-Authenticate: re-sending credentials would not cure it.
    expect(answer.headers['www-authenticate']).toBeUndefined();
  });

  it("UNAUTHORIZED: another session's Request-Id", async () => {
    const other = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    const key = generateKeyPair().publicKey;
    const c = await challenge(other.id, key);
    const answer = await t.call('POST', path(login.sessionId), { body: { clientPublicKey: key }, headers: signed(c) });
    expect401(answer, 'UNAUTHORIZED', /does not match a pending challenge/);
  });

  it('UNAUTHORIZED: an expired challenge', async () => {
    const short = await testEmulator();
    try {
      const me = await otpLogin(short);
      const key = generateKeyPair().publicKey;
      const first = await short.call('POST', path(me.sessionId), { body: { clientPublicKey: key } });
      short.emu.testing.advanceClock(300_000); // the default challenge lifetime; the session (900 s) lives on
      const answer = await short.call('POST', path(me.sessionId), {
        body: { clientPublicKey: key },
        headers: signed(first.body, me.privateKey),
      });
      expect401(answer, 'UNAUTHORIZED', /expired/);
    } finally {
      await short.close();
    }
  });

  it.each(['expired', 'revoked'] as const)(
    'UNAUTHORIZED: the target session is %s (initial call and retry)',
    async (how) => {
      const pair = generateKeyPair();
      const target = t.emu.testing.createSession(pair.publicKey) as { id: string };
      const key = generateKeyPair().publicKey;
      const c = await challenge(target.id, key);
      const end = async () => {
        if (how === 'expired') t.emu.testing.expireSession(target.id);
        else {
          const d = await t.call('DELETE', `/auth/sessions/${target.id}`);
          const r = await t.call('DELETE', `/auth/sessions/${target.id}`, { headers: signed(d.body, pair.privateKey) });
          expect(r.status).toBe(204);
        }
      };
      await end();
      // Signed by another active session of the wallet, so only the target's state can fail it.
      const retry = await t.call('POST', path(target.id), { body: { clientPublicKey: key }, headers: signed(c) });
      expect401(retry, 'UNAUTHORIZED', new RegExp(how));
      const initial = await t.call('POST', path(target.id), { body: { clientPublicKey: key } });
      expect401(initial, 'UNAUTHORIZED', new RegExp(how));
    },
  );
});
