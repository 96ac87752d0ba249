/**
 * Strong customer authentication over HTTP: factors (TOTP with the sandbox code, a passkey with a
 * real WebAuthn registration by the software authenticator), login and the lockout ladder, 2FA
 * reset on the clock, beneficiary trust, and the quote challenges that hold a transfer or a quote's
 * payment instructions until `POST /quotes/{id}/authorize`. Customers outside the SCA regions get 409.
 */
import { describe, expect, it } from 'vitest';
import { assertPasskey, attestPasskey, createSoftwarePasskey } from '../../../../src/auth/software-passkey.js';
import { SANDBOX_SCA_CODE } from '../../../../src/service/index.js';
import { accountBalances, externalAccount, fund } from '../money/support.js';
import { STILL, errorShape, useLoggedInEmulator, type Answer } from '../support.js';
import {
  code,
  createQuote,
  enrollPasskey,
  euCustomer,
  executeSigned,
  fieldOf,
  scaCaller,
  verifyPhone,
} from './support.js';

// The clock moves only when a test moves it, so durations compare exactly.
const { t } = useLoggedInEmulator(STILL);
const sca = scaCaller(t);

describe('who may use SCA', () => {
  const ops: Array<[string, string, object | undefined]> = [
    ['GET', 'factors', undefined],
    ['POST', 'factors', { type: 'TOTP' }],
    ['POST', 'factors/confirm', { type: 'TOTP', secret: 'x', code: SANDBOX_SCA_CODE }],
    ['DELETE', 'factors/abc', undefined],
    ['POST', 'login/start', { factor: 'SMS_OTP' }],
    ['POST', 'login/complete', { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.1', code: SANDBOX_SCA_CODE }],
    ['POST', 'record-event', { eventType: 'FAILED_LOGIN_ATTEMPT' }],
    ['POST', 'factors/reset', { factor: 'SMS_OTP' }],
    ['GET', 'factors/reset/ScaReset:x', undefined],
    ['POST', 'factors/reset/ScaReset:x/complete', undefined],
  ];
  it.each(ops)('%s /sca/%s: 409 CONFLICT outside the SCA regions, 404 for an unknown customer', async (m, p, body) => {
    expect(code(await sca(m, p, t.emu.fixtures.customerId, body))).toBe('CONFLICT');
    const unknown = await sca(m, p, 'Customer:00000000-0000-0000-0000-000000000000', body);
    expect([unknown.status, code(unknown)]).toEqual([404, 'USER_NOT_FOUND']);
  });

  it('customerId is required: without it, 400 INVALID_INPUT naming it; an id that names no customer, 404 USER_NOT_FOUND', async () => {
    const without = await t.call('GET', '/sca/factors');
    expect([without.status, code(without)]).toEqual([400, 'INVALID_INPUT']);
    expect(without.body.details.errors).toEqual([
      { field: 'customerId', rule: 'required', message: 'customerId is required' },
    ]);
    const nobody = await t.call('GET', '/sca/factors?customerId=nobody');
    expect([nobody.status, code(nobody)]).toEqual([404, 'USER_NOT_FOUND']);
    expect(nobody.body.message).toMatch(/customerId query parameter/);
  });
});

describe('factors', () => {
  it('TOTP: start hands out a secret; confirm needs that secret and the sandbox code; then it is listed', async () => {
    const c = await euCustomer(t);
    expect((await sca('GET', 'factors', c.id)).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
    const started = await sca('POST', 'factors', c.id, { type: 'TOTP' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      type: 'TOTP',
      secret: expect.stringMatching(/^[0-9a-f]{40}$/),
      secretBase32Encoded: expect.stringMatching(/^[A-Z2-7]{32}$/),
      totpUri: expect.stringMatching(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]{32}&issuer=Service$/),
    });
    const { secret } = started.body;
    const wrongCode = await sca('POST', 'factors/confirm', c.id, { type: 'TOTP', secret, code: '000000' });
    expect([wrongCode.status, fieldOf(wrongCode)]).toEqual([400, 'code']);
    const wrongSecret = await sca('POST', 'factors/confirm', c.id, {
      type: 'TOTP',
      secret: 'ab',
      code: SANDBOX_SCA_CODE,
    });
    expect([wrongSecret.status, fieldOf(wrongSecret)]).toEqual([400, 'secret']);
    const done = await sca('POST', 'factors/confirm', c.id, { type: 'TOTP', secret, code: SANDBOX_SCA_CODE });
    expect(done.status).toBe(200);
    expect(done.body.type).toBe('TOTP');
    expect(done.body.recoveryCodes).toHaveLength(8);
    expect((await sca('GET', 'factors', c.id)).body.factors).toEqual([{ factor: 'SMS_OTP' }, { factor: 'TOTP' }]);
  });

  it('passkey: a real registration; one per customer (409 PASSKEY_ALREADY_ENROLLED); delete by credentialId', async () => {
    const c = await euCustomer(t);
    const started = await sca('POST', 'factors', c.id, { type: 'PASSKEY' });
    expect(started.body).toMatchObject({
      type: 'PASSKEY',
      relyingPartyId: 'localhost',
      allowedOrigins: expect.any(Array),
    });
    const passkey = createSoftwarePasskey();
    const forged = { ...attestPasskey(passkey, started.body.options.challenge), clientDataJson: 'e30' };
    const refused = await sca('POST', 'factors/confirm', c.id, {
      type: 'PASSKEY',
      origin: passkey.origin,
      credential: forged,
    });
    expect([refused.status, fieldOf(refused)]).toEqual([400, 'credential']);
    const credential = attestPasskey(passkey, started.body.options.challenge);
    const done = await sca('POST', 'factors/confirm', c.id, { type: 'PASSKEY', origin: passkey.origin, credential });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: passkey.credentialId } });
    expect(code(await sca('POST', 'factors', c.id, { type: 'PASSKEY' }))).toBe('PASSKEY_ALREADY_ENROLLED');
    expect((await sca('DELETE', `factors/${passkey.credentialId}`, c.id)).status).toBe(204);
    expect((await sca('DELETE', `factors/${passkey.credentialId}`, c.id)).status).toBe(404);
    expect((await sca('GET', 'factors', c.id)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
  });
});

describe('login and lockout', () => {
  const complete = (id: string, body: object) =>
    sca('POST', 'login/complete', id, { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.1', ...body });

  it('SMS_OTP: refused while the phone is not verified; then start gives a challengeId and complete opens a session', async () => {
    const c = await euCustomer(t);
    const unverified = await sca('POST', 'login/start', c.id, { factor: 'SMS_OTP' });
    expect(errorShape(unverified)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(fieldOf(unverified)).toBe('factor');
    expect(unverified.body.details.errors[0].message).toMatch(/verify-phone/);
    await verifyPhone(t, c.id);
    const started = await sca('POST', 'login/start', c.id, { factor: 'SMS_OTP' });
    expect(started.body).toMatchObject({ factor: 'SMS_OTP', challengeId: expect.stringMatching(/^ScaChallenge:/) });
    expect(fieldOf(await complete(c.id, { code: SANDBOX_SCA_CODE }))).toBe('challengeId');
    const done = await complete(c.id, { challengeId: started.body.challengeId, code: SANDBOX_SCA_CODE });
    expect(done.status).toBe(200);
    expect(Date.parse(done.body.sessionExpiresAt) - t.emu.testing.now()).toBe(15 * 60_000);
    expect(done.body.status).toBe('SUCCESS');
  });

  it('TOTP not enrolled: 400 naming factor', async () => {
    const c = await euCustomer(t);
    expect(fieldOf(await sca('POST', 'login/start', c.id, { factor: 'TOTP' }))).toBe('factor');
  });

  it('passkey: an assertion over the start challenge; a replayed one fails (the counter)', async () => {
    const c = await euCustomer(t);
    const passkey = await enrollPasskey(t, c.id);
    const started = await sca('POST', 'login/start', c.id, { factor: 'PASSKEY' });
    const { assertion, signCount } = assertPasskey(passkey, started.body.passkeyOptions.challenge);
    passkey.signCount = signCount;
    const body = {
      factor: 'PASSKEY',
      endUserIpAddress: '203.0.113.1',
      origin: passkey.origin,
      passkeyAssertion: assertion,
    };
    expect((await sca('POST', 'login/complete', c.id, body)).body.status).toBe('SUCCESS');
    await sca('POST', 'login/start', c.id, { factor: 'PASSKEY' });
    const replay = await sca('POST', 'login/complete', c.id, body);
    expect([replay.status, fieldOf(replay)]).toEqual([400, 'passkeyAssertion']);
  });

  it('five wrong codes lock the login for 15 minutes (423 ACCOUNT_LOCKED with lockedUntil), then it works', async () => {
    const c = await euCustomer(t);
    await verifyPhone(t, c.id);
    const started = await sca('POST', 'login/start', c.id, { factor: 'SMS_OTP' });
    for (let i = 0; i < 5; i++) {
      expect((await complete(c.id, { challengeId: started.body.challengeId, code: '999999' })).status).toBe(400);
    }
    const locked = await complete(c.id, { challengeId: started.body.challengeId, code: SANDBOX_SCA_CODE });
    expect(locked.status).toBe(423);
    expect(errorShape(locked)).toMatchObject({ code: 'ACCOUNT_LOCKED', details: { lockedUntil: expect.any(String) } });
    t.emu.testing.advanceClock(15 * 60_000);
    const again = await sca('POST', 'login/start', c.id, { factor: 'SMS_OTP' });
    expect((await complete(c.id, { challengeId: again.body.challengeId, code: SANDBOX_SCA_CODE })).status).toBe(200);
  });

  it.each([
    [4, false, undefined],
    [5, false, 15],
    [6, false, 30],
    [7, false, 60],
    [8, false, 24 * 60],
    [9, true, undefined],
  ])('record-event FAILED_LOGIN_ATTEMPT ×%i: suspended %s, locked %s minutes', async (n, suspended, minutes) => {
    const c = await euCustomer(t);
    let last: Answer | undefined;
    for (let i = 0; i < n; i++) last = await sca('POST', 'record-event', c.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect(last!.body).toMatchObject({ eventType: 'FAILED_LOGIN_ATTEMPT', failedAttempts: n, suspended });
    const lockedFor =
      last!.body.lockedUntil === null ? undefined : (Date.parse(last!.body.lockedUntil) - t.emu.testing.now()) / 60_000;
    expect(lockedFor).toBe(minutes);
    const reset = await sca('POST', 'record-event', c.id, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(reset.body).toEqual({
      eventType: 'RESET_PASSWORD_COMPLETED',
      suspended: false,
      lockedUntil: null,
      failedAttempts: 0,
    });
  });
});

describe('2FA reset', () => {
  it('liveness passes after 60 s of emulator time; completing an SMS_OTP reset sets the new number', async () => {
    const c = await euCustomer(t);
    expect(fieldOf(await sca('POST', 'factors/reset', c.id, { factor: 'TOTP' }))).toBe('factor');
    const started = await sca('POST', 'factors/reset', c.id, { factor: 'SMS_OTP' });
    expect(started.status).toBe(201);
    const id = started.body.resetId;
    expect((await sca('GET', `factors/reset/${id}`, c.id)).body).toMatchObject({
      status: 'INITIATED',
      factor: 'SMS_OTP',
    });
    expect(
      fieldOf(
        await sca('POST', `factors/reset/${id}/complete`, c.id, {
          mobile: { countryCode: '+49', number: '15199999999' },
        }),
      ),
    ).toBe('resetId');
    t.emu.testing.advanceClock(60_000);
    expect((await sca('GET', `factors/reset/${id}`, c.id)).body.status).toBe('LIVENESS_PASSED');
    expect(fieldOf(await sca('POST', `factors/reset/${id}/complete`, c.id, {}))).toBe('mobile');
    // Each part is a plain string in the description; together they must make an E.164 number.
    const notE164 = { mobile: { countryCode: '49', number: '15199999999' } };
    expect(fieldOf(await sca('POST', `factors/reset/${id}/complete`, c.id, notE164))).toBe('mobile');
    expect((await sca('GET', `factors/reset/${id}`, c.id)).body.status).toBe('LIVENESS_PASSED');
    const done = await sca('POST', `factors/reset/${id}/complete`, c.id, {
      mobile: { countryCode: '+49', number: '15199999999' },
    });
    expect(done.status).toBe(204);
    expect((await sca('GET', `factors/reset/${id}`, c.id)).body).toMatchObject({
      status: 'COMPLETED',
      enrollmentStatus: null,
    });
    expect((await t.call('GET', `/customers/${c.id}`)).body.phoneNumber).toBe('+4915199999999');
  });

  it('a sixth start within a day is 429 RATE_LIMITED with Retry-After', async () => {
    const c = await euCustomer(t);
    for (let i = 0; i < 5; i++)
      expect((await sca('POST', 'factors/reset', c.id, { factor: 'SMS_OTP' })).status).toBe(201);
    const sixth = await sca('POST', 'factors/reset', c.id, { factor: 'SMS_OTP' });
    expect([sixth.status, code(sixth)]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('quotes of an SCA customer', () => {
  const authorize = (id: string, body: object) => t.call('POST', `/quotes/${id}/authorize`, { body });

  it('real-time funding: 202 PENDING_AUTHORIZATION without instructions until authorized', async () => {
    const c = await euCustomer(t);
    const destination = await externalAccount(t, c.id, 'USD_ACCOUNT');
    const created = await createQuote(t, { customerId: c.id }, destination, 5_000);
    expect(created.status, created.text).toBe(202);
    expect(created.body).toMatchObject({
      status: 'PENDING_AUTHORIZATION',
      scaChallenge: { id: expect.stringMatching(/^ScaChallenge:/), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] },
    });
    expect(created.body.paymentInstructions).toBeUndefined();
    const q = created.body.id;
    const send = await t.call('POST', '/sandbox/send', { body: { quoteId: q, currencyCode: 'USD' } });
    expect([send.status, fieldOf(send)]).toEqual([400, 'quoteId']);
    expect((await t.call('POST', `/quotes/${q}/authorize/resend`)).status).toBe(204);
    expect(fieldOf(await authorize(q, { code: '111111' }))).toBe('code');
    expect(fieldOf(await authorize(q, {}))).toBe('code');
    const done = await authorize(q, { code: SANDBOX_SCA_CODE, endUserIpAddress: '203.0.113.7' });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('PENDING');
    expect(done.body.scaChallenge).toBeUndefined();
    expect(done.body.paymentInstructions).toHaveLength(1);
    expect(code(await authorize(q, { code: SANDBOX_SCA_CODE }))).toBe('CONFLICT');
    expect((await t.call('POST', '/sandbox/send', { body: { quoteId: q, currencyCode: 'USD' } })).status).toBe(200);
  });

  it('account-funded: execute holds the transfer; authorize releases it; a second execute is 409', async () => {
    const c = await euCustomer(t);
    await fund(t, c.usd, 100_000);
    const destination = await externalAccount(t, c.id, 'USD_ACCOUNT');
    const q = await createQuote(t, { accountId: c.usd }, destination, 10_000);
    expect(q.body.status).toBe('PENDING');
    const executed = await executeSigned(t, q.body.id);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { purpose: 'PAYOUT' } });
    // The quote names its transaction from creation (the description); none exists until authorized.
    expect((await t.call('GET', `/transactions/${executed.body.transactionId}`)).status).toBe(404);
    expect((await accountBalances(t, c.usd)).balance).toBe(100_000);
    expect(code(await t.call('POST', `/quotes/${q.body.id}/execute`))).toBe('CONFLICT');
    const done = await authorize(q.body.id, { code: SANDBOX_SCA_CODE });
    expect(done.status).toBe(200);
    expect(done.body.transactionId).toMatch(/^Transaction:/);
    expect((await accountBalances(t, c.usd)).totalBalance).toBe(90_000);
  });

  it('a challenge is SMS_OTP by default with a passkey enrolled; scaFactor PASSKEY asks for the passkey', async () => {
    const c = await euCustomer(t);
    const passkey = await enrollPasskey(t, c.id);
    const destination = await externalAccount(t, c.id, 'USD_ACCOUNT');
    const plain = await createQuote(t, { customerId: c.id }, destination, 5_000);
    expect(plain.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP', 'PASSKEY'] });
    expect(plain.body.scaChallenge.passkeyAssertionOptions).toBeUndefined();

    const asked = await createQuote(t, { customerId: c.id }, destination, 5_000, { scaFactor: 'PASSKEY' });
    expect(asked.status, asked.text).toBe(202);
    const challenge = asked.body.scaChallenge;
    expect(challenge.factor).toBe('PASSKEY');
    const { assertion, signCount } = assertPasskey(passkey, challenge.passkeyAssertionOptions.challenge);
    passkey.signCount = signCount;
    const done = await authorize(asked.body.id, { origin: passkey.origin, passkeyAssertion: assertion });
    expect(done.status, done.text).toBe(200);
    expect(done.body.paymentInstructions).toHaveLength(1);

    // The execute's own scaFactor picks the factor of the challenge it issues.
    await fund(t, c.usd, 100_000);
    const q = await createQuote(t, { accountId: c.usd }, destination, 10_000);
    const executed = await executeSigned(t, q.body.id, { scaFactor: 'PASSKEY' });
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body.scaChallenge.factor).toBe('PASSKEY');
    expect(executed.body.scaChallenge.passkeyAssertionOptions.challenge).toEqual(expect.any(String));
  });

  it('the quote and its challenge lapse together after 5 minutes: 409, nothing moves', async () => {
    const c = await euCustomer(t);
    await fund(t, c.usd, 100_000);
    const destination = await externalAccount(t, c.id, 'USD_ACCOUNT');
    const q = await createQuote(t, { accountId: c.usd }, destination, 10_000);
    await executeSigned(t, q.body.id);
    t.emu.testing.advanceClock(5 * 60_000);
    const late = await authorize(q.body.id, { code: SANDBOX_SCA_CODE });
    expect(late.status).toBe(409);
    expect((await accountBalances(t, c.usd)).totalBalance).toBe(100_000);
  });

  it('authorize and resend are 409 for a customer outside the SCA regions', async () => {
    const destination = await externalAccount(t, t.emu.fixtures.customerId, 'USD_ACCOUNT');
    const q = await createQuote(t, { customerId: t.emu.fixtures.customerId }, destination, 5_000);
    expect(q.status).toBe(201);
    expect(code(await authorize(q.body.id, { code: SANDBOX_SCA_CODE }))).toBe('CONFLICT');
    expect(code(await t.call('POST', `/quotes/${q.body.id}/authorize/resend`))).toBe('CONFLICT');
  });
});

describe('beneficiary trust', () => {
  it('trust needs SCA; a trusted beneficiary needs no quote challenge and cannot be deleted until untrusted', async () => {
    const c = await euCustomer(t);
    const destination = await externalAccount(t, c.id, 'USD_ACCOUNT');
    const path = `/customers/external-accounts/${destination}`;
    const started = await t.call('POST', `${path}/trust`);
    expect(started.status).toBe(200);
    const challenge = started.body.scaChallenge;
    expect(challenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] });
    expect(
      fieldOf(
        await t.call('POST', `${path}/trust/confirm`, {
          body: { challengeId: 'ScaChallenge:x', code: SANDBOX_SCA_CODE },
        }),
      ),
    ).toBe('challengeId');
    const trusted = await t.call('POST', `${path}/trust/confirm`, {
      body: { challengeId: challenge.id, code: SANDBOX_SCA_CODE },
    });
    expect(trusted.body).toEqual({ trusted: true });
    expect(code(await t.call('POST', `${path}/trust`))).toBe('CONFLICT');

    const q = await createQuote(t, { customerId: c.id }, destination, 5_000);
    expect([q.status, q.body.status]).toEqual([201, 'PENDING']);

    expect(code(await t.call('DELETE', path))).toBe('BENEFICIARY_TRUSTED');
    await t.call('POST', `${path}/untrust`);
    const untrusted = await t.call('POST', `${path}/untrust/confirm`, { body: { code: SANDBOX_SCA_CODE } });
    expect(untrusted.body).toEqual({ trusted: false });
    expect((await t.call('DELETE', path)).status).toBe(204);
  });

  it('409 for a customer outside the SCA regions; 404 for an unknown account', async () => {
    const other = await externalAccount(t, t.emu.fixtures.customerId, 'USD_ACCOUNT');
    expect(code(await t.call('POST', `/customers/external-accounts/${other}/trust`))).toBe('CONFLICT');
    const unknown = await t.call(
      'POST',
      '/customers/external-accounts/ExternalAccount:00000000-0000-0000-0000-000000000000/untrust',
    );
    expect(unknown.status).toBe(404);
  });
});
