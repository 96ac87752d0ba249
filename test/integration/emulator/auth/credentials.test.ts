/**
 * POST/GET/DELETE /auth/credentials over HTTP: the first credential of an account at once, later
 * ones through the signed two-step retry, one EMAIL_OTP and one SMS_OTP per account, the signed
 * revoke (approved by another credential), and every refusal with the spec's status and code.
 */
import { describe, expect, it } from 'vitest';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { newWallet, signedCall } from './support.js';
import { errorShape, otpLogin, signedHeaders, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator();

const create = (body: object, headers: Record<string, string> = {}) =>
  t.call('POST', '/auth/credentials', { body, headers });
const setPhone = async (customerId: string, phoneNumber: string) =>
  expect(
    (await t.call('PATCH', `/customers/${customerId}`, { body: { customerType: 'INDIVIDUAL', phoneNumber } })).status,
  ).toBe(200);
const list = async (accountId: string) =>
  (await t.call('GET', `/auth/credentials?accountId=${accountId}`)).body.data as Array<Record<string, any>>;

describe('POST /auth/credentials: OTP', () => {
  it('the first credential of an account is made at once, with a bundle the OTP verify opens', async () => {
    const wallet = await newWallet(t);
    const answer = await create({ type: 'EMAIL_OTP', accountId: wallet.accountId });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: wallet.accountId,
      type: 'EMAIL_OTP',
      nickname: expect.stringMatching(/@example\.test$/),
    });
    // The bundle is real: encrypting 000000 to it and verifying gives a session.
    const target = verifyOtpTargetBundle(answer.body.otpEncryptionTargetBundle, t.emu.otpSignerPublicKey);
    const tek = generateKeyPair();
    const body = JSON.stringify({
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpBundle(target.targetPublic, '000000', tek.publicKey),
    });
    const first = await t.call('POST', `/auth/credentials/${answer.body.id}/verify`, { body });
    const done = await t.call('POST', `/auth/credentials/${answer.body.id}/verify`, {
      body,
      headers: signedHeaders(first.body, tek.privateKey),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ accountId: wallet.accountId, type: 'EMAIL_OTP' });
    expect(await list(wallet.accountId)).toEqual([expect.objectContaining({ id: answer.body.id, type: 'EMAIL_OTP' })]);
  });

  it('a second EMAIL_OTP is 400 EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', async () => {
    const answer = await create({ type: 'EMAIL_OTP', accountId: t.emu.fixtures.accountId });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS' });
  });

  it('SMS_OTP needs the customer phone number: 400 MISSING_MANDATORY_USER_INFO without one, 201 once it is set', async () => {
    const wallet = await newWallet(t); // an email, no phone number
    const body = { type: 'SMS_OTP', accountId: wallet.accountId };
    expect(errorShape(await create(body))).toMatchObject({
      status: 400,
      code: 'MISSING_MANDATORY_USER_INFO',
      details: { errors: [{ field: 'phoneNumber' }] },
    });
    await setPhone(wallet.customerId, '+15555550123');
    expect(await create(body)).toMatchObject({ status: 201, body: { type: 'SMS_OTP', nickname: '+15555550123' } });
  });

  it('the fixture customer has a phone number: SMS_OTP is the signed add at once, then one per account', async () => {
    const body = { type: 'SMS_OTP', accountId: t.emu.fixtures.accountId };
    expect(t.emu.fixtures.phoneNumber).toMatch(/^\+[1-9]\d{7,14}$/);
    const { first, retry } = await signedCall(t, 'POST', '/auth/credentials', body, login.privateKey);
    expect(first.body.type).toBe('SMS_OTP');
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      type: 'SMS_OTP',
      nickname: t.emu.fixtures.phoneNumber,
      otpEncryptionTargetBundle: expect.any(String),
    });
    // The signed retry is idempotent: the same bytes again get the same 201, not a duplicate error.
    const resent = await create(body, signedHeaders(first.body, login.privateKey));
    expect(resent).toMatchObject({ status: 201, body: { id: retry.body.id } });
    const again = await create(body);
    expect(errorShape(again)).toMatchObject({ status: 400, code: 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS' });
    expect((await list(t.emu.fixtures.accountId)).map((m) => m.type)).toEqual(
      expect.arrayContaining(['EMAIL_OTP', 'SMS_OTP']),
    );
    // And it logs in: an SMS_OTP verify with the sandbox code gives a session of the fixture account.
    const sms = await otpLogin(t, retry.body.id, 'SMS_OTP');
    expect(sms.session).toMatchObject({ type: 'SMS_OTP', nickname: t.emu.fixtures.phoneNumber });
  });
});

describe('POST /auth/credentials: the signed add refuses', () => {
  const body = () => ({ type: 'OAUTH', accountId: t.emu.fixtures.accountId, oidcToken: oidc() });
  const oidc = () => {
    const now = Math.floor(t.emu.testing.now() / 1000);
    const c = { iss: 'https://accounts.google.com', aud: 'app', sub: `s-${now}`, iat: now, exp: now + 600 };
    return `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(c)).toString('base64url')}.x`;
  };

  it('a stamp by a key that is no session of this account (WALLET_SIGNATURE_INVALID)', async () => {
    const b = body();
    const first = await create(b);
    expect(first.status).toBe(202);
    const retry = await create(b, signedHeaders(first.body, generateKeyPair().privateKey));
    expect(errorShape(retry)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('a session of another account (WALLET_SIGNATURE_INVALID)', async () => {
    const wallet = await newWallet(t);
    const made = await create({ type: 'EMAIL_OTP', accountId: wallet.accountId });
    const other = await otpLogin(t, made.body.id);
    const b = body();
    const first = await create(b);
    const retry = await create(b, signedHeaders(first.body, other.privateKey));
    expect(errorShape(retry)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('a retry body that differs from step 1 (WALLET_SIGNATURE_BODY_MISMATCH), a missing Request-Id, an unknown one', async () => {
    const b = body();
    const first = await create(b);
    const changed = await create(
      { ...b, oidcToken: oidc().replace('.x', '.y') },
      signedHeaders(first.body, login.privateKey),
    );
    expect(errorShape(changed)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
    const { 'service-wallet-signature': stamp } = signedHeaders(first.body, login.privateKey);
    expect(errorShape(await create(b, { 'service-wallet-signature': stamp! }))).toMatchObject({
      status: 401,
      code: 'REQUEST_ID_MISSING',
    });
    const unknown = await create(b, {
      'service-wallet-signature': stamp!,
      'request-id': 'Request:00000000-0000-4000-8000-000000000000',
    });
    expect(errorShape(unknown)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('an expired challenge (clock moved past expiresAt)', async () => {
    const b = body();
    const first = await create(b);
    t.emu.testing.advanceClock(Date.parse(first.body.expiresAt) - t.emu.testing.now() + 1);
    const retry = await create(b, signedHeaders(first.body, login.privateKey));
    expect(errorShape(retry)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/expired/),
    });
  });
});

describe('POST /auth/credentials: bad input', () => {
  it('lists every bad field at once', async () => {
    const answer = await create({ accountId: 'InternalAccount:nope' });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['type']);
    const passkey = await create({ type: 'PASSKEY', accountId: t.emu.fixtures.accountId, nickname: 'bad<name>' });
    expect(passkey.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['challenge', 'attestation']);
  });

  it('404 for an unknown account', async () => {
    const answer = await create({
      type: 'EMAIL_OTP',
      accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
    });
    expect(errorShape(answer)).toMatchObject({ status: 404 });
  });
});

describe('GET /auth/credentials', () => {
  it('needs a well-formed accountId (400) and answers {data: []} for an unknown one', async () => {
    expect(errorShape(await t.call('GET', '/auth/credentials'))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'accountId' }] },
    });
    expect(errorShape(await t.call('GET', '/auth/credentials?accountId=x'))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    const unknown = await t.call(
      'GET',
      '/auth/credentials?accountId=InternalAccount:00000000-0000-4000-8000-000000000000',
    );
    expect(unknown).toMatchObject({ status: 200, body: { data: [] } });
  });
});

describe('DELETE /auth/credentials/{id}', () => {
  it('is approved by a session of another credential; the revoked credential and its sessions end', async () => {
    const wallet = await newWallet(t);
    const email = (await create({ type: 'EMAIL_OTP', accountId: wallet.accountId })).body;
    const emailSession = await otpLogin(t, email.id);
    await setPhone(wallet.customerId, '+15555550199');
    const sms = (
      await signedCall(
        t,
        'POST',
        '/auth/credentials',
        { type: 'SMS_OTP', accountId: wallet.accountId },
        emailSession.privateKey,
      )
    ).retry.body;
    const smsSession = await otpLogin(t, sms.id, 'SMS_OTP');

    // The credential's own session may not approve its removal.
    const self = await signedCall(t, 'DELETE', `/auth/credentials/${sms.id}`, undefined, smsSession.privateKey);
    expect(self.first.body.type).toBe('SMS_OTP');
    expect(errorShape(self.retry)).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Service-Wallet-Signature key is not the key of an active session of another credential of this wallet',
    });

    const { first, retry } = await signedCall(
      t,
      'DELETE',
      `/auth/credentials/${sms.id}`,
      undefined,
      emailSession.privateKey,
    );
    expect(retry.status).toBe(204);
    // The settled retry is idempotent: re-sent, it answers 204 again though the credential is gone.
    const resent = await t.call('DELETE', `/auth/credentials/${sms.id}`, {
      headers: signedHeaders(first.body, emailSession.privateKey),
    });
    expect(resent.status).toBe(204);
    expect((await list(wallet.accountId)).map((m) => m.id)).toEqual([email.id]);
    const sessions = await t.call('GET', `/auth/sessions?accountId=${wallet.accountId}`);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([emailSession.sessionId]);
    expect(errorShape(await t.call('DELETE', `/auth/credentials/${sms.id}`))).toMatchObject({ status: 404 });

    // The last credential stays: 400 before any challenge.
    const last = await t.call('DELETE', `/auth/credentials/${email.id}`);
    expect(errorShape(last)).toMatchObject({ status: 400, message: expect.stringMatching(/last credential/) });
  });
});
