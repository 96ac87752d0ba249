/**
 * The SCA tests' steps: a customer of an SCA region, calls to /sca/* for a customer, an enrolled
 * passkey factor, quotes from either source, and an execute through its signed retry.
 */
import { expect } from 'vitest';
import { attestPasskey, createSoftwarePasskey, type SoftwarePasskey } from '../../../../src/auth/software-passkey.js';
import { SANDBOX_SCA_CODE } from '../../../../src/service/index.js';
import { errorShape, type Answer, type TestEmulator } from '../support.js';

export const code = (answer: Answer) => errorShape(answer).code;
export const fieldOf = (answer: Answer) => errorShape(answer).details?.errors?.[0]?.field;

let serial = 0;

/** A customer of an SCA region (DE) and its USD wallet. */
export async function euCustomer(t: TestEmulator): Promise<{ id: string; usd: string }> {
  const created = await t.call('POST', '/customers', {
    body: {
      customerType: 'INDIVIDUAL',
      fullName: 'Erika Mustermann',
      region: 'DE',
      email: `erika${++serial}.${process.pid}@example.de`,
      phoneNumber: '+4915112345678',
    },
  });
  expect(created.status, created.text).toBe(201);
  const list = await t.call('GET', `/customers/internal-accounts?customerId=${created.body.id}`);
  const usd = list.body.data.find((a: any) => a.balance.currency.code === 'USD').id;
  return { id: created.body.id, usd };
}

/** Verifies the customer's phone with the sandbox code, as an SMS_OTP login needs. */
export async function verifyPhone(t: TestEmulator, customerId: string): Promise<void> {
  expect((await t.call('POST', `/customers/${customerId}/verify-phone`)).status).toBe(204);
  const confirmed = await t.call('POST', `/customers/${customerId}/verify-phone/confirm`, {
    body: { code: SANDBOX_SCA_CODE },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
}

/** `sca('POST', 'login/start', customerId, body)`: a call to /sca/<path> for that customer. */
export function scaCaller(t: TestEmulator) {
  return (method: string, path: string, customerId: string, body?: object) =>
    t.call(method, `/sca/${path}${path.includes('?') ? '&' : '?'}customerId=${encodeURIComponent(customerId)}`, {
      ...(body ? { body } : {}),
    });
}

/** Enrols a software passkey as the customer's passkey factor (asserting it took) and returns it. */
export async function enrollPasskey(t: TestEmulator, customerId: string): Promise<SoftwarePasskey> {
  const sca = scaCaller(t);
  const passkey = createSoftwarePasskey();
  const started = await sca('POST', 'factors', customerId, { type: 'PASSKEY' });
  const credential = attestPasskey(passkey, started.body.options.challenge);
  const done = await sca('POST', 'factors/confirm', customerId, {
    type: 'PASSKEY',
    origin: passkey.origin,
    credential,
  });
  expect(done.status, done.text).toBe(200);
  return passkey;
}

/**
 * A quote paying `amount` USD cents to an external account, funded in real time by the customer or
 * from an account; `more` adds body fields (a `scaFactor`).
 */
export function createQuote(
  t: TestEmulator,
  from: { customerId: string } | { accountId: string },
  destinationAccountId: string,
  amount: number,
  more: object = {},
): Promise<Answer> {
  const source =
    'customerId' in from
      ? { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: from.customerId }
      : { sourceType: 'ACCOUNT', accountId: from.accountId };
  return t.call('POST', '/quotes', {
    body: {
      source,
      destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      ...more,
    },
  });
}

/** Executes an embedded-wallet quote through its signed retry, signed with the sandbox's legacy signature. */
export async function executeSigned(t: TestEmulator, quoteId: string, body?: object): Promise<Answer> {
  const first = await t.call('POST', `/quotes/${quoteId}/execute`, body ? { body } : {});
  expect(first.status, first.text).toBe(202);
  return t.call('POST', `/quotes/${quoteId}/execute`, {
    headers: { 'service-wallet-signature': 'sandbox-valid-signature', 'request-id': first.body.requestId },
    ...(body ? { body } : {}),
  });
}
