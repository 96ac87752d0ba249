/**
 * Requests shaped as the service's official TypeScript SDK (@lightsparkdev/grid 0.7.0) sends them,
 * by plain HTTP: what the description allows must be taken even where it is more than the
 * description declares (see "Checked with the official TypeScript SDK" in src/emulator/README.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEmulator, type TestEmulator } from '../support.js';
import { newCustomer, person } from './support.js';

let t: TestEmulator;
let customerId: string;
beforeAll(async () => {
  t = await testEmulator();
  customerId = (await newCustomer(t)).id;
});
afterAll(() => t.close());

/**
 * The SDK's account-info types require `countries` (an array the description's schemas do not
 * declare, and do not forbid: no `additionalProperties: false`) and send `paymentRails`.
 */
const brlPix = {
  accountType: 'BRL_ACCOUNT',
  countries: ['BR'],
  paymentRails: ['PIX'],
  pixKey: 'ada000@pix.example.com',
  pixKeyType: 'EMAIL',
  taxId: '12345678000',
  beneficiary: person,
};

describe('external accounts as the SDK sends them', () => {
  it('a BRL PIX account with countries and paymentRails is taken; countries is ignored, not echoed', async () => {
    const created = await t.call('POST', '/customers/external-accounts', {
      body: { customerId, currency: 'BRL', accountInfo: brlPix },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.accountInfo).toMatchObject({
      accountType: 'BRL_ACCOUNT',
      pixKey: 'ada000@pix.example.com',
      pixKeyType: 'EMAIL',
      taxId: '12345678000',
      paymentRails: ['PIX'],
    });
    expect(created.body.accountInfo).not.toHaveProperty('countries');

    // And it is paid out to: a quote from the platform's USD account in BRL, executed.
    const accounts = await t.call('GET', '/platform/internal-accounts?currency=USD');
    const source = accounts.body.data[0].id;
    expect(
      (await t.call('POST', `/sandbox/internal-accounts/${source}/fund`, { body: { amount: 50_000 } })).status,
    ).toBe(200);
    const quote = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: created.body.id },
        lockedCurrencyAmount: 10_000,
        lockedCurrencySide: 'SENDING',
      },
    });
    expect(quote.status, quote.text).toBe(201);
    expect(quote.body.receivingCurrency.code).toBe('BRL');
    const executed = await t.call('POST', `/quotes/${quote.body.id}/execute`);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body.status).toBe('COMPLETED');
  });

  it('the platform takes an MXN account with countries too', async () => {
    const created = await t.call('POST', '/platform/external-accounts', {
      body: {
        currency: 'MXN',
        accountInfo: {
          accountType: 'MXN_ACCOUNT',
          countries: ['MX'],
          paymentRails: ['SPEI'],
          clabeNumber: '002010077777777000',
          beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme SA de CV' },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.accountInfo).not.toHaveProperty('countries');
  });

  it('a declared field of the wrong type is still refused by the description check, naming it', async () => {
    const answer = await t.call('POST', '/customers/external-accounts', {
      body: { customerId, currency: 'BRL', accountInfo: { ...brlPix, pixKey: ['ada000@pix.example.com'] } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['accountInfo.pixKey']);
  });
});

describe('PATCH /config as the SDK sends it', () => {
  it('takes optional fields of the description without webhookEndpoint, keeps them and shows them', async () => {
    const hooks = 'http://127.0.0.1:9/sdk-hooks';
    expect((await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks } })).status).toBe(200);
    const currencies = [
      {
        currencyCode: 'BRL',
        minAmount: 100,
        maxAmount: 1_000_000,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
        enabledTransactionTypes: ['OUTGOING'],
      },
    ];
    const domain = await t.call('PATCH', '/config', { body: { umaDomain: 'pay.example.com' } });
    expect(domain.status, domain.text).toBe(200);
    expect(domain.body).toMatchObject({ umaDomain: 'pay.example.com', webhookEndpoint: hooks });
    const rates = await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies } });
    expect(rates.status, rates.text).toBe(200);
    expect((await t.call('PATCH', '/config', { body: {} })).status).toBe(200);
    expect((await t.call('GET', '/config')).body).toMatchObject({
      umaDomain: 'pay.example.com',
      supportedCurrencies: currencies,
      webhookEndpoint: hooks,
    });
  });
});

describe('GET /exchange-rates as the SDK sends it', () => {
  it('several destinationCurrency values are repeated (the description); a comma list, as the SDK sends it, is told so', async () => {
    const repeated = await t.call(
      'GET',
      '/exchange-rates?sourceCurrency=USD&destinationCurrency=BRL&destinationCurrency=MXN',
    );
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body.data.map((r: any) => r.destinationCurrency.code).sort()).toEqual(['BRL', 'MXN']);
    const joined = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=BRL,MXN');
    expect(joined.status).toBe(400);
    expect(joined.body.details.errors).toEqual([
      {
        field: 'destinationCurrency',
        message:
          'destinationCurrency takes one currency each time: destinationCurrency=BRL&destinationCurrency=MXN, not BRL,MXN',
      },
    ]);
  });
});
