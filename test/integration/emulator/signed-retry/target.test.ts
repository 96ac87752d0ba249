/**
 * The signed retry and its target over time: a challenge belongs to one kind of request on one
 * resource, so its Request-Id cannot complete another endpoint's request; while a retry is still
 * PROCESSING the target is checked again on every re-send (a session that expired meanwhile is
 * 401); once the request has settled, a byte-identical re-send gets the settled answer even though
 * the target has changed since (the spec calls the request idempotent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import {
  errorShape,
  otpLogin,
  signedHeaders,
  STILL,
  testEmulator,
  type LoggedIn,
  type TestEmulator,
} from '../support.js';

const refreshPath = (id: string) => `/auth/sessions/${id}/refresh`;

/** A second session of the fixture wallet: the target, while the login's key signs. */
function targetSession(t: TestEmulator): string {
  return (t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string }).id;
}

async function sessionIds(t: TestEmulator): Promise<string[]> {
  const listed = await t.call('GET', `/auth/sessions?accountId=${t.emu.fixtures.accountId}`);
  return listed.body.data.map((s: { id: string }) => s.id);
}

async function refreshChallenge(t: TestEmulator, sessionId: string, clientPublicKey: string) {
  const answer = await t.call('POST', refreshPath(sessionId), { body: { clientPublicKey } });
  expect(answer.status).toBe(202);
  return answer.body as { payloadToSign: string; requestId: string; expiresAt: string };
}

describe('settled at once', () => {
  let t: TestEmulator;
  let login: LoggedIn;
  beforeAll(async () => {
    t = await testEmulator();
    login = await otpLogin(t);
  });
  afterAll(() => t.close());

  it("a refresh challenge's Request-Id sent to the revoke of the same session is 401 and revokes nothing", async () => {
    const target = targetSession(t);
    const c = await refreshChallenge(t, target, generateKeyPair().publicKey);
    const answer = await t.call('DELETE', `/auth/sessions/${target}`, { headers: signedHeaders(c, login.privateKey) });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/does not match a pending challenge/),
    });
    expect(await sessionIds(t)).toContain(target);
  });

  it('a byte-identical re-send after settling gets the same 201 although the target session has expired since', async () => {
    const target = targetSession(t);
    const next = generateKeyPair().publicKey;
    const c = await refreshChallenge(t, target, next);
    const options = { body: JSON.stringify({ clientPublicKey: next }), headers: signedHeaders(c, login.privateKey) };
    const first = await t.call('POST', refreshPath(target), options);
    expect(first.status).toBe(201);
    t.emu.testing.expireSession(target);
    const again = await t.call('POST', refreshPath(target), options);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });
});

describe('still PROCESSING', () => {
  let t: TestEmulator;
  let login: LoggedIn;
  beforeAll(async () => {
    t = await testEmulator({ processingRetries: 1 });
    login = await otpLogin(t);
  });
  afterAll(() => t.close());

  it('a re-send after the target session expired is 401, and no session is made', async () => {
    const target = targetSession(t);
    const next = generateKeyPair().publicKey;
    const c = await refreshChallenge(t, target, next);
    const options = { body: JSON.stringify({ clientPublicKey: next }), headers: signedHeaders(c, login.privateKey) };
    const processing = await t.call('POST', refreshPath(target), options);
    expect(processing.status).toBe(200);
    expect(processing.body.status).toBe('PROCESSING');
    t.emu.testing.expireSession(target);
    const before = await sessionIds(t);
    const answer = await t.call('POST', refreshPath(target), options);
    expect(errorShape(answer)).toMatchObject({ status: 401 });
    expect(await sessionIds(t)).toEqual(before);
  });
});

describe('the challenge lifetime, to the millisecond', () => {
  let t: TestEmulator;
  let login: LoggedIn;
  beforeAll(async () => {
    t = await testEmulator(STILL);
    login = await otpLogin(t);
  });
  afterAll(() => t.close());

  it('a retry 1 ms before expiresAt completes; at expiresAt it is 401 expired', async () => {
    const answers: number[] = [];
    for (const early of [1, 0]) {
      const target = targetSession(t);
      const next = generateKeyPair().publicKey;
      const c = await refreshChallenge(t, target, next);
      t.emu.testing.advanceClock(Date.parse(c.expiresAt) - t.emu.testing.now() - early);
      const answer = await t.call('POST', refreshPath(target), {
        body: { clientPublicKey: next },
        headers: signedHeaders(c, login.privateKey),
      });
      answers.push(answer.status);
      if (early === 0)
        expect(errorShape(answer)).toMatchObject({ status: 401, reason: expect.stringMatching(/expired/) });
    }
    expect(answers).toEqual([201, 401]);
  });
});
