/**
 * The signed branch of PATCH /customers/{customerId} over HTTP: an email (or phone) change of a
 * customer whose wallet has an EMAIL_OTP (SMS_OTP) credential is a 202 challenge, then a retry
 * stamped by an active session of that customer's wallets; the retry applies the change and
 * renames the tied credentials. Every other change is applied at once. Each refusal with the
 * description's status and code, and nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { newWallet, type Wallet } from '../auth/support.js';
import { errorShape, otpLogin, signedHeaders, useLoggedInEmulator, type LoggedIn } from '../support.js';
import { randomEmail } from '../../../helpers/random-data.js';

const { t } = useLoggedInEmulator();

interface OtpWallet extends Wallet {
  credentialId: string;
  login: LoggedIn;
  email: string;
}

/** A customer with an email, an EMAIL_OTP credential on its USD wallet (its first: made at once) and a session of it. */
async function otpWallet(): Promise<OtpWallet> {
  const wallet = await newWallet(t);
  const credential = await t.call('POST', '/auth/credentials', {
    body: { type: 'EMAIL_OTP', accountId: wallet.accountId },
  });
  expect(credential.status, credential.text).toBe(201);
  const login = await otpLogin(t, credential.body.id);
  return { ...wallet, credentialId: credential.body.id, login, email: credential.body.nickname };
}

const patch = (customerId: string, body: object | string, headers: Record<string, string> = {}) =>
  t.call('PATCH', `/customers/${customerId}`, { body, headers });
const getCustomer = async (id: string) => (await t.call('GET', `/customers/${id}`)).body;
const credentialsOf = async (accountId: string) =>
  (await t.call('GET', `/auth/credentials?accountId=${accountId}`)).body.data as Array<Record<string, any>>;
const fresh = randomEmail;

describe('PATCH /customers: the signed contact change', () => {
  it('email change with an EMAIL_OTP credential: 202 challenge, nothing changed; signed retry 200 changes customer and credential', async () => {
    const w = await otpWallet();
    const email = fresh();
    const body = JSON.stringify({
      customerType: 'INDIVIDUAL',
      email,
      address: { line1: '2 Side St', city: 'Austin', postalCode: '73301', country: 'US' },
    });
    const first = await patch(w.customerId, body);
    expect(first.status, first.text).toBe(202);
    expect(first.body).toEqual({
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      parameters: { customerId: w.customerId, email },
    });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);

    const retry = await patch(w.customerId, body, signedHeaders(first.body, w.login.privateKey));
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ id: w.customerId, email, address: { city: 'Austin' } });
    expect(await getCustomer(w.customerId)).toMatchObject({ email, address: { city: 'Austin' } });
    expect((await credentialsOf(w.accountId)).map((c) => c.nickname)).toEqual([email]);
    // The request is idempotent: the identical retry gets the same answer.
    expect((await patch(w.customerId, body, signedHeaders(first.body, w.login.privateKey))).body).toEqual(retry.body);
  });

  it("a session of the customer's other wallet may sign; every tied credential is renamed", async () => {
    const w = await otpWallet();
    const eur = (await t.call('GET', `/internal-accounts?customerId=${w.customerId}`)).body.data[1].id;
    const second = await t.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: eur } });
    expect(second.status, second.text).toBe(201);
    const eurLogin = await otpLogin(t, second.body.id);
    const body = { customerType: 'INDIVIDUAL', email: fresh() };
    const first = await patch(w.customerId, body);
    expect(first.status).toBe(202);
    const retry = await patch(w.customerId, body, signedHeaders(first.body, eurLogin.privateKey));
    expect(retry.status, retry.text).toBe(200);
    expect((await credentialsOf(w.accountId))[0]!.nickname).toBe(body.email);
    expect((await credentialsOf(eur))[0]!.nickname).toBe(body.email);
  });

  it.each([
    ['no change of contact (address only)', (_w: OtpWallet) => ({ customerType: 'INDIVIDUAL', nationality: 'FR' })],
    ['the same email again', (w: OtpWallet) => ({ customerType: 'INDIVIDUAL', email: w.email })],
    [
      'a phone number without an SMS_OTP credential',
      () => ({ customerType: 'INDIVIDUAL', phoneNumber: '+14155550123' }),
    ],
  ])('immediate 200: %s', async (_name, bodyOf) => {
    const w = await otpWallet();
    const body = bodyOf(w);
    const answer = await patch(w.customerId, body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject(body);
  });

  it('immediate 200: an email change of a customer without an OTP credential', async () => {
    const w = await newWallet(t);
    const email = fresh();
    const answer = await patch(w.customerId, { customerType: 'INDIVIDUAL', email });
    expect(answer.status).toBe(200);
    expect(answer.body.email).toBe(email);
  });

  it('a phone change with an SMS_OTP credential is signed too (phone activity)', async () => {
    const w = await otpWallet();
    expect((await patch(w.customerId, { customerType: 'INDIVIDUAL', phoneNumber: '+14155550100' })).status).toBe(200);
    const add = await t.call('POST', '/auth/credentials', { body: { type: 'SMS_OTP', accountId: w.accountId } });
    expect(add.status).toBe(202); // a second credential of the account is the signed add
    const added = await t.call('POST', '/auth/credentials', {
      body: JSON.stringify({ type: 'SMS_OTP', accountId: w.accountId }),
      headers: signedHeaders(add.body, w.login.privateKey),
    });
    expect(added.status, added.text).toBe(201);
    const body = { customerType: 'INDIVIDUAL', phoneNumber: '+14155550199' };
    const first = await patch(w.customerId, body);
    expect(first.status, first.text).toBe(202);
    expect(JSON.parse(first.body.payloadToSign).type).toBe('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER');
    expect((await patch(w.customerId, body, signedHeaders(first.body, w.login.privateKey))).body.phoneNumber).toBe(
      '+14155550199',
    );
    const nicknames = (await credentialsOf(w.accountId)).map((c) => [c.type, c.nickname]);
    expect(nicknames).toEqual([
      ['EMAIL_OTP', w.email],
      ['SMS_OTP', '+14155550199'],
    ]);
  });
});

describe('PATCH /customers: refusals of the signed contact change (nothing changes)', () => {
  it.each([
    [
      'Request-Id missing',
      'WALLET',
      (c: any, key: string) => ({ 'service-wallet-signature': signedHeaders(c, key)['service-wallet-signature']! }),
      'REQUEST_ID_MISSING',
    ],
    ['signature missing', 'WALLET', (c: any) => ({ 'request-id': c.requestId }), 'WALLET_SIGNATURE_MISSING'],
    [
      'unknown Request-Id',
      'WALLET',
      (c: any, key: string) => signedHeaders({ ...c, requestId: `Request:${randomUUID()}` }, key),
      'UNAUTHORIZED',
    ],
    [
      'a key with no session of the wallet',
      'STRANGER',
      (c: any, key: string) => signedHeaders(c, key),
      'WALLET_SIGNATURE_INVALID',
    ],
    [
      'a stamp over other bytes',
      'WALLET',
      (c: any, key: string) => signedHeaders({ ...c, payloadToSign: `${c.payloadToSign} ` }, key),
      'WALLET_SIGNATURE_INVALID',
    ],
  ])('401: %s', async (_name, signer, headersOf, code) => {
    const w = await otpWallet();
    const body = { customerType: 'INDIVIDUAL', email: fresh() };
    const first = await patch(w.customerId, body);
    expect(first.status).toBe(202);
    const key = signer === 'WALLET' ? w.login.privateKey : generateKeyPair().privateKey;
    expect(errorShape(await patch(w.customerId, body, headersOf(first.body, key)))).toMatchObject({
      status: 401,
      code,
    });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);
  });

  it('401 WALLET_SIGNATURE_BODY_MISMATCH: the retry changes the body', async () => {
    const w = await otpWallet();
    const first = await patch(w.customerId, { customerType: 'INDIVIDUAL', email: fresh() });
    const other = await patch(
      w.customerId,
      { customerType: 'INDIVIDUAL', email: fresh() },
      signedHeaders(first.body, w.login.privateKey),
    );
    expect(errorShape(other)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);
  });

  it('401 once the challenge expired (emulator clock)', async () => {
    const w = await otpWallet();
    const body = { customerType: 'INDIVIDUAL', email: fresh() };
    const first = await patch(w.customerId, body);
    t.emu.testing.advanceClock(Date.parse(first.body.expiresAt) - t.emu.testing.now() + 1);
    const late = await patch(w.customerId, body, signedHeaders(first.body, w.login.privateKey));
    expect(errorShape(late)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);
  });

  it('409 EMAIL_OTP_EMAIL_ALREADY_EXISTS: another EMAIL_OTP credential sends to that email', async () => {
    const [w, other] = [await otpWallet(), await otpWallet()];
    const answer = await patch(w.customerId, { customerType: 'INDIVIDUAL', email: other.email });
    expect(errorShape(answer)).toMatchObject({ status: 409, code: 'EMAIL_OTP_EMAIL_ALREADY_EXISTS' });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);
  });

  it('409 EMAIL_OTP_CREDENTIAL_SET_CHANGED: a credential was added between the 202 and the retry', async () => {
    const w = await otpWallet();
    const body = { customerType: 'INDIVIDUAL', email: fresh() };
    const first = await patch(w.customerId, body);
    const eur = (await t.call('GET', `/internal-accounts?customerId=${w.customerId}`)).body.data[1].id;
    expect((await t.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: eur } })).status).toBe(
      201,
    );
    const retry = await patch(w.customerId, body, signedHeaders(first.body, w.login.privateKey));
    expect(errorShape(retry)).toMatchObject({ status: 409, code: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' });
    expect((await getCustomer(w.customerId)).email).toBe(w.email);
    expect((await credentialsOf(w.accountId))[0]!.nickname).toBe(w.email);
    // A new challenge covers the new set.
    const again = await patch(w.customerId, body);
    expect((await patch(w.customerId, body, signedHeaders(again.body, w.login.privateKey))).status).toBe(200);
  });

  it('400 before any challenge: bad fields are listed at once', async () => {
    const w = await otpWallet();
    const answer = await patch(w.customerId, {
      customerType: 'INDIVIDUAL',
      email: 'not-an-email',
      birthDate: '1990-13-01',
    });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['email', 'birthDate']);
  });
});
