/** The deprecated sealed-key refresh and the 200 PROCESSING behaviour of signed retries. */
import { describe, expect, it } from 'vitest';
import { decryptSessionSigningKey } from '../../../../src/crypto/bundles.js';
import { generateKeyPair, publicKeyFromPrivate } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, useLoggedInEmulator } from '../support.js';

const refresh = (id: string) => `/auth/sessions/${id}/refresh`;

describe('legacy flow (uncompressed clientPublicKey)', () => {
  const { t, login } = useLoggedInEmulator();

  it('201 carries encryptedSessionSigningKey whose plaintext is the new session key', async () => {
    const client = generateKeyPair({ uncompressed: true });
    expect(client.publicKey).toHaveLength(130);
    const body = { clientPublicKey: client.publicKey };
    const c = await t.call('POST', refresh(login.sessionId), { body });
    const done = await t.call('POST', refresh(login.sessionId), {
      body,
      headers: signedHeaders(c.body, login.privateKey),
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
      headers: signedHeaders(c2.body, sessionKey),
    });
    expect(r2.status).toBe(201);

    // The client's own key is not a session key.
    const c3 = await t.call('POST', refresh(done.body.id), { body: { clientPublicKey: next.publicKey } });
    const r3 = await t.call('POST', refresh(done.body.id), {
      body: { clientPublicKey: next.publicKey },
      headers: signedHeaders(c3.body, client.privateKey),
    });
    expect(errorShape(r3).code).toBe('WALLET_SIGNATURE_INVALID');

    const list = await t.call('GET', `/auth/sessions?accountId=${t.emu.fixtures.accountId}`);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(done.body.id);
    expect(list.text).not.toContain('encryptedSessionSigningKey');
  });
});

describe('200 PROCESSING (processingRetries 2)', () => {
  const { t, login } = useLoggedInEmulator({ processingRetries: 2 });

  it('answers PROCESSING to the first two signed retries, then settles on the identical re-send', async () => {
    const key = generateKeyPair().publicKey;
    const raw = JSON.stringify({ clientPublicKey: key });
    const c = await t.call('POST', refresh(login.sessionId), { body: raw });
    const headers = signedHeaders(c.body, login.privateKey);
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
    const s = t.emu.testing.createSession(pair.publicKey) as { id: string };
    const c = await t.call('DELETE', `/auth/sessions/${s.id}`);
    const headers = signedHeaders(c.body, pair.privateKey);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.call('DELETE', `/auth/sessions/${s.id}`, { headers })).status);
    expect(statuses).toEqual([200, 200, 204]);
  });
});
