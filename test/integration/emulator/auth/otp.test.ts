/** Credential challenge and OTP verify, done the way a client does it with our crypto functions. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, otpLogin, signedHeaders, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const cred = () => t.emu.fixtures.credentialId;

async function target(emulator = t): Promise<string> {
  const c = await emulator.call('POST', `/auth/credentials/${emulator.emu.fixtures.credentialId}/challenge`, {
    body: {},
  });
  expect(c.status).toBe(200);
  return verifyOtpTargetBundle(c.body.otpEncryptionTargetBundle, emulator.emu.otpSignerPublicKey).targetPublic;
}

async function verifyBody(code = '000000', tekPublic = generateKeyPair().publicKey, targetPublic?: string) {
  return {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(targetPublic ?? (await target()), code, tekPublic),
  };
}

describe('OTP challenge', () => {
  it('returns the AuthMethod fields and a fresh bundle signed by the published signer', async () => {
    const a = await t.call('POST', `/auth/credentials/${cred()}/challenge`, { body: {} });
    const b = await t.call('POST', `/auth/credentials/${cred()}/challenge`);
    expect(a.body).toMatchObject({
      id: cred(),
      accountId: t.emu.fixtures.accountId,
      type: 'EMAIL_OTP',
      nickname: t.emu.fixtures.email,
    });
    const ta = verifyOtpTargetBundle(a.body.otpEncryptionTargetBundle, t.emu.otpSignerPublicKey);
    const tb = verifyOtpTargetBundle(b.body.otpEncryptionTargetBundle, t.emu.otpSignerPublicKey);
    expect(ta.targetPublic).not.toBe(tb.targetPublic);
    expect(ta.signerPublicKey).toBe(t.emu.otpSignerPublicKey);
  });

  it('404 for an unknown credential, 400 for a bad clientPublicKey', async () => {
    expect((await t.call('POST', `/auth/credentials/AuthMethod:${randomUUID()}/challenge`, { body: {} })).status).toBe(
      404,
    );
    const bad = await t.call('POST', `/auth/credentials/${cred()}/challenge`, { body: { clientPublicKey: 'x' } });
    expect(bad.status).toBe(400);
    expect(errorShape(bad).details.errors[0].field).toBe('clientPublicKey');
  });
});

describe('OTP verify', () => {
  it('202 bound to the TEK, then 200 AuthSession for the TEK-signed retry', async () => {
    const tek = generateKeyPair();
    const body = await verifyBody('000000', tek.publicKey);
    const first = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ type: 'EMAIL_OTP' });
    expect(first.body.requestId).toMatch(/^Request:/);
    expect(JSON.parse(first.body.payloadToSign).parameters).toEqual({ publicKey: tek.publicKey });
    const done = await t.call('POST', `/auth/credentials/${cred()}/verify`, {
      body,
      headers: signedHeaders(first.body, tek.privateKey),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      accountId: t.emu.fixtures.accountId,
      type: 'EMAIL_OTP',
      nickname: t.emu.fixtures.email,
    });
    expect(done.body.id).toMatch(/^Session:[0-9a-f-]{36}$/);
    expect(done.body).not.toHaveProperty('encryptedSessionSigningKey');
    const ttl = Date.parse(done.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
  });

  it('401 UNAUTHORIZED "Invalid OTP code" for any other code', async () => {
    const answer = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body: await verifyBody('123456') });
    expect(answer.status).toBe(401);
    expect(errorShape(answer)).toMatchObject({ code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
  });

  it('refuses a reused bundle', async () => {
    const body = await verifyBody();
    expect((await t.call('POST', `/auth/credentials/${cred()}/verify`, { body })).status).toBe(202);
    const again = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body });
    expect(again.status).toBe(401);
    expect(errorShape(again).reason).toMatch(/stale or reused/);
  });

  it('opens a bundle once even when the same verify arrives concurrently', async () => {
    // Opening is asynchronous (HPKE); each concurrent call must not find the target still unused.
    const body = await verifyBody();
    const answers = await Promise.all(
      [1, 2, 3].map(() => t.call('POST', `/auth/credentials/${cred()}/verify`, { body })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 401, 401]);
    for (const a of answers.filter((x) => x.status === 401)) expect(errorShape(a).reason).toMatch(/stale or reused/);
  });

  it('refuses a bundle encrypted to a target this emulator never issued', async () => {
    const other = await testEmulator();
    try {
      const body = {
        type: 'EMAIL_OTP',
        encryptedOtpBundle: await encryptOtpBundle(await target(other), '000000', generateKeyPair().publicKey),
      };
      const answer = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body });
      expect(answer.status).toBe(401);
      expect(errorShape(answer).code).toBe('UNAUTHORIZED');
    } finally {
      await other.close();
    }
  });

  it('refuses a bundle whose target expired', async () => {
    const short = await testEmulator();
    try {
      const targetPublic = await target(short);
      short.emu.testing.advanceClock(300_000); // the default target lifetime
      const body = {
        type: 'EMAIL_OTP',
        encryptedOtpBundle: await encryptOtpBundle(targetPublic, '000000', generateKeyPair().publicKey),
      };
      const answer = await short.call('POST', `/auth/credentials/${short.emu.fixtures.credentialId}/verify`, { body });
      expect(answer.status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('WALLET_SIGNATURE_INVALID when the retry is not signed by the TEK', async () => {
    const body = await verifyBody();
    const first = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body });
    const signedByOther = await t.call('POST', `/auth/credentials/${cred()}/verify`, {
      body,
      headers: signedHeaders(first.body, generateKeyPair().privateKey),
    });
    expect(signedByOther.status).toBe(401);
    expect(errorShape(signedByOther).code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('WALLET_SIGNATURE_BODY_MISMATCH when the retry carries another bundle', async () => {
    const tek = generateKeyPair();
    const body = await verifyBody('000000', tek.publicKey);
    const first = await t.call('POST', `/auth/credentials/${cred()}/verify`, { body });
    const answer = await t.call('POST', `/auth/credentials/${cred()}/verify`, {
      body: await verifyBody('000000', tek.publicKey),
      headers: signedHeaders(first.body, tek.privateKey),
    });
    expect(answer.status).toBe(401);
    expect(errorShape(answer).code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
  });

  it('400 lists every bad field at once', async () => {
    const answer = await t.call('POST', `/auth/credentials/${cred()}/verify`, {
      body: { type: 'SMS_OTP', encryptedOtpBundle: '{"nope":1}' },
    });
    expect(answer.status).toBe(400);
    const fields = errorShape(answer).details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(['type', 'encryptedOtpBundle']);
  });

  it('each login makes a distinct session', async () => {
    const a = await otpLogin(t);
    const b = await otpLogin(t);
    expect(a.sessionId).not.toBe(b.sessionId);
  });
});
