/** GET /auth/sessions and the signed DELETE /auth/sessions/{id}. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator();

const list = () => t.call('GET', `/auth/sessions?accountId=${t.emu.fixtures.accountId}`);

describe('GET /auth/sessions', () => {
  it('lists active sessions of the account as AuthSession objects', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body.hasMore).toBe(false);
    const mine = answer.body.data.find((s: { id: string }) => s.id === login.sessionId);
    expect(Object.keys(mine).sort()).toEqual([
      'accountId',
      'createdAt',
      'expiresAt',
      'id',
      'nickname',
      'type',
      'updatedAt',
    ]);
  });

  it('leaves out expired sessions', async () => {
    const s = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    expect((await list()).body.data.map((x: { id: string }) => x.id)).toContain(s.id);
    t.emu.testing.expireSession(s.id);
    expect((await list()).body.data.map((x: { id: string }) => x.id)).not.toContain(s.id);
  });

  it.each([
    ['missing', ''],
    ['malformed', '?accountId=InternalAccount:nope'],
  ])('400 INVALID_INPUT when accountId is %s', async (_name, query) => {
    const answer = await t.call('GET', `/auth/sessions${query}`);
    expect(answer.status).toBe(400);
    expect(errorShape(answer).details.errors[0]).toMatchObject(
      query
        ? { field: 'accountId', constraint: { pattern: expect.any(String) } }
        : { field: 'accountId', rule: 'required' },
    );
  });

  it('400 naming accountId for an unknown account (the description declares no 404 here)', async () => {
    const answer = await t.call('GET', `/auth/sessions?accountId=InternalAccount:${randomUUID()}`);
    expect(errorShape(answer)).toMatchObject({ status: 400, details: { errors: [{ field: 'accountId' }] } });
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it('202, signed retry 204; the session is gone and cannot be refreshed; a second DELETE is a safe 204', async () => {
    const pair = generateKeyPair();
    const s = t.emu.testing.createSession(pair.publicKey) as { id: string };
    const c = await t.call('DELETE', `/auth/sessions/${s.id}`);
    expect(c.status).toBe(202);
    expect(c.body.type).toBe('EMAIL_OTP'); // the description's AuthSignedRequestChallenge, like the verify 202
    expect(JSON.parse(c.body.payloadToSign).parameters).toEqual({ sessionId: s.id });
    const done = await t.call('DELETE', `/auth/sessions/${s.id}`, {
      headers: signedHeaders(c.body, pair.privateKey),
    });
    expect(done.status).toBe(204);
    expect(done.text).toBe('');
    expect((await list()).body.data.map((x: { id: string }) => x.id)).not.toContain(s.id);
    const refresh = await t.call('POST', `/auth/sessions/${s.id}/refresh`, {
      body: { clientPublicKey: generateKeyPair().publicKey },
    });
    expect(errorShape(refresh)).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringMatching(/revoked/) });
    expect((await t.call('DELETE', `/auth/sessions/${s.id}`)).status).toBe(204);
  });

  it('another active session of the same wallet may sign the revoke', async () => {
    const s = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    const c = await t.call('DELETE', `/auth/sessions/${s.id}`);
    const done = await t.call('DELETE', `/auth/sessions/${s.id}`, {
      headers: signedHeaders(c.body, login.privateKey),
    });
    expect(done.status).toBe(204);
  });

  it('401s on an unsigned retry or a foreign key, 404 for an unknown session', async () => {
    const s = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    const c = await t.call('DELETE', `/auth/sessions/${s.id}`);
    const missing = await t.call('DELETE', `/auth/sessions/${s.id}`, { headers: { 'request-id': c.body.requestId } });
    expect(errorShape(missing).code).toBe('WALLET_SIGNATURE_MISSING');
    const foreign = await t.call('DELETE', `/auth/sessions/${s.id}`, {
      headers: signedHeaders(c.body, generateKeyPair().privateKey),
    });
    expect(errorShape(foreign).code).toBe('WALLET_SIGNATURE_INVALID');
    expect((await list()).body.data.map((x: { id: string }) => x.id)).toContain(s.id);
    expect((await t.call('DELETE', `/auth/sessions/Session:${randomUUID()}`)).status).toBe(404);
  });
});
