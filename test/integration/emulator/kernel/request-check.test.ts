/**
 * The kernel's schema check (kernel/request-check/): refusals generated from the API description,
 * before any handler, each field named with its rule; and the description's removed operations and
 * the 405's Allow header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, type TestEmulator, testEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const fields = (answer: { body: any }) => answer.body.details.errors.map((e: { field: string }) => e.field);

describe('the schema check', () => {
  it('names every failing field, its rule and what it allows, in details and in the message', async () => {
    const count = async () => (await t.call('GET', '/customers?limit=100')).body.data.length;
    const before = await count();
    const answer = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', birthDate: '1990-02-30', nationality: 'XX', region: 'EU', email: 5 },
    });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const byField = Object.fromEntries(answer.body.details.errors.map((e: { field: string }) => [e.field, e]));
    expect(byField.birthDate).toMatchObject({ rule: 'format', constraint: { format: 'date' } });
    expect(byField.nationality).toMatchObject({ rule: 'format', constraint: { format: 'iso3166-1-alpha-2' } });
    expect(byField.region).toMatchObject({ rule: 'format', constraint: { format: 'iso3166-1-alpha-2' } });
    expect(byField.email).toMatchObject({ rule: 'type' });
    for (const field of ['birthDate', 'nationality', 'region', 'email']) expect(answer.body.message).toContain(field);
    expect(await count()).toBe(before);
  });

  it('refuses a date-time that is not RFC 3339 on a real day, in bodies and queries alike', async () => {
    for (const bad of ['March 7, 2099 10:00', '2099-02-30T10:00:00Z', '2099-03-07T24:00:00Z', '2099-03-07T10:00:00']) {
      const query = await t.call('GET', `/customers?createdAfter=${encodeURIComponent(bad)}`);
      expect(fields(query), bad).toEqual(['createdAfter']);
    }
    const ok = await t.call('GET', `/customers?createdAfter=${encodeURIComponent('2020-02-29T10:00:00.5+01:00')}`);
    expect(ok.status).toBe(200);
  });

  it('selects a discriminated branch by its tag and names only that branch’s fields', async () => {
    const answer = await t.call('POST', '/customers/external-accounts', {
      body: { currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: 12 } },
    });
    expect(fields(answer).sort()).toEqual(
      ['accountInfo.accountNumber', 'accountInfo.beneficiary', 'accountInfo.routingNumber'].sort(),
    );
    const unknownType = await t.call('POST', '/customers/external-accounts', {
      body: { currency: 'USD', accountInfo: { accountType: 'MOON_ACCOUNT' } },
    });
    expect(unknownType.body.details.errors).toEqual([
      expect.objectContaining({
        field: 'accountInfo.accountType',
        rule: 'enum',
        constraint: expect.objectContaining({ enum: expect.arrayContaining(['USD_ACCOUNT']) }),
      }),
    ]);
  });

  it('refuses a TOTP scaFactor on a quote and on its execute (it cannot carry dynamic linking)', async () => {
    const quote = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: t.emu.fixtures.customerId },
        destination: { destinationType: 'ACCOUNT', accountId: t.emu.fixtures.accountId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        scaFactor: 'TOTP',
      },
    });
    expect(answerOf(quote, 'scaFactor')).toMatchObject({ rule: 'enum', constraint: { enum: ['SMS_OTP', 'PASSKEY'] } });
    const execute = await t.call('POST', `/quotes/${t.emu.fixtures.quoteId}/execute`, { body: { scaFactor: 'TOTP' } });
    expect(answerOf(execute, 'scaFactor')).toMatchObject({
      rule: 'enum',
      constraint: { enum: ['SMS_OTP', 'PASSKEY'] },
    });
    expect((await t.call('GET', `/quotes/${t.emu.fixtures.quoteId}`)).body.status).toBe('PENDING');
  });
});

function answerOf(answer: { status: number; body: any }, field: string) {
  expect(answer.status).toBe(400);
  return answer.body.details.errors.find((e: { field: string }) => e.field === field);
}

describe('routes the description does not have', () => {
  it.each([
    ['GET', '/customers/kyc-link', 'POST /customers/{customerId}/kyc-link'],
    ['POST', '/webhooks/test', 'POST /sandbox/webhooks/test'],
    // Methods the official TypeScript SDK 0.7.0 still has (quotes.list, plaid.*).
    ['GET', '/quotes?customerId=Customer:1', 'GET /transactions'],
    ['POST', '/plaid/link-tokens', 'POST /customers/external-accounts'],
    ['POST', '/plaid/callback/link-sandbox-1', 'POST /customers/external-accounts'],
  ])('%s %s, removed from the API, is 404 naming its replacement', async (method, path, replacement) => {
    const answer = await t.call(method, path, method === 'POST' ? { body: {} } : {});
    expect(errorShape(answer)).toMatchObject({ status: 404, details: { replacement } });
    expect(answer.body.message).toContain(replacement);
  });

  it('a 405 lists each allowed method once, in its Allow header and its message', async () => {
    const answer = await t.call('PUT', '/quotes', { body: {} });
    expect(answer.status).toBe(405);
    const allowed = String(answer.headers.allow).split(', ');
    expect(allowed).toContain('POST');
    expect(new Set(allowed).size).toBe(allowed.length);
    expect(answer.body.message.match(/POST/g)).toHaveLength(1);
  });
});
