/** The deprecated sealed-key refresh and the 200 PROCESSING behaviour of signed retries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSessionSigningKey } from '../../../src/crypto/bundles.js';
import { generateKeyPair, publicKeyFromPrivate } from '../../../src/crypto/keys.js';
import { createStamp } from '../../../src/crypto/stamp.js';
import { errorShape, otpLogin, testEmulator, type LoggedIn, type TestEmulator } from './support.js';

const refresh = (id: string) => `/auth/sessions/${id}/refresh`;

describe('legacy flow (uncompressed clientPublicKey)', () => {
  let t: TestEmulator;
  let login: LoggedIn;
  beforeAll(async () => {
    t = await testEmulator();
    login = await otpLogin(t);
  });
  afterAll(() => t.close());

  it('201 carries encryptedSessionSigningKey whose plaintext is the new session key', async () => {
    const client = generateKeyPair({ uncompressed: true });
    expect(client.publicKey).toHaveLength(130);
    const body = { clientPublicKey: client.publicKey };
    const c = await t.call('POST', refresh(login.sessionId), { body });
    const done = await t.call('POST', refresh(login.sessionId), {
      body,
      headers: { 'service-wallet-signature': createStamp(c.body.payloadToSign, login.privateKey), 'request-id': c.body.requestId },
    });
    expect(done.status).toBe(201);
    expect(typeof done.body.encryptedSessionSigningKey).toBe('string');
    const sessionKey = await decryptSessionSigningKey(done.body.encryptedSessionSigningKey, client.privateKey);
    expect(sessionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(publicKeyFromPrivate(sessionKey)).not.toBe(client.publicKey);

    // The decrypted key is the new session's key: its stamps authorize a refresh of that session.
    const next = generateKeyPair();
    const c2 = await t.call('POST', refresh(done.body.id), { body: { clientPublicKey: next.publicKey } });
    const r2 = await t.call('POST', refresh(done.body.id), {
      body: { clientPublicKey: next.publicKey },
      headers: { 'service-wallet-signature': createStamp(c2.body.payloadToSign, sessionKey), 'request-id': c2.body.requestId },
    });
    expect(r2.status).toBe(201);

    // The client's own key is not a session key.
    const c3 = await t.call('POST', refresh(done.body.id), { body: { clientPublicKey: next.publicKey } });
    const r3 = await t.call('POST', refresh(done.body.id), {
      body: { clientPublicKey: next.publicKey },
      headers: { 'service-wallet-signature': createStamp(c3.body.payloadToSign, client.privateKey), 'request-id': c3.body.requestId },
    });
    expect(errorShape(r3).code).toBe('WALLET_SIGNATURE_INVALID');

    const list = await t.call('GET', `/auth/sessions?accountId=${t.emu.fixtures.accountId}`);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(done.body.id);
    expect(list.text).not.toContain('encryptedSessionSigningKey');
  });
});

describe('200 PROCESSING (processingRetries 2)', () => {
  let t: TestEmulator;
  let login: LoggedIn;
  beforeAll(async () => {
    t = await testEmulator({ processingRetries: 2 });
    login = await otpLogin(t); // follows verify's own PROCESSING answers
  }, 15_000);
  afterAll(() => t.close());

  it('answers PROCESSING to the first two signed retries, then settles on the identical re-send', async () => {
    const key = generateKeyPair().publicKey;
    const raw = JSON.stringify({ clientPublicKey: key });
    const c = await t.call('POST', refresh(login.sessionId), { body: raw });
    const headers = { 'service-wallet-signature': createStamp(c.body.payloadToSign, login.privateKey), 'request-id': c.body.requestId };
    const one = await t.call('POST', refresh(login.sessionId), { body: raw, headers });
    const two = await t.call('POST', refresh(login.sessionId), { body: raw, headers });
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body.status).toBe('PROCESSING');
    expect(typeof one.body.message).toBe('string');
    const differs = await t.call('POST', refresh(login.sessionId), { body: ` ${raw}`, headers });
    expect(differs.status).toBe(401);
    expect(errorShape(differs).code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    const three = await t.call('POST', refresh(login.sessionId), { body: raw, headers });
    expect(three.status).toBe(201);
    expect(three.body.id).toMatch(/^Session:/);
    const four = await t.call('POST', refresh(login.sessionId), { body: raw, headers });
    expect(four.body).toEqual(three.body);
  });

  it('applies to revoke as well', async () => {
    const pair = generateKeyPair();
    const s = t.emu.createSession(pair.publicKey) as { id: string };
    const c = await t.call('DELETE', `/auth/sessions/${s.id}`);
    const headers = { 'service-wallet-signature': createStamp(c.body.payloadToSign, pair.privateKey), 'request-id': c.body.requestId };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.call('DELETE', `/auth/sessions/${s.id}`, { headers })).status);
    expect(statuses).toEqual([200, 200, 204]);
  });
});
