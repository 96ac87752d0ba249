/**
 * The read-only directories (discoveries, UMA providers, VASPs), the End User Terms, and the crypto
 * withdrawal fee estimate: their filters, paging, refusals and arithmetic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_FEES } from '../../../../src/emulator/features/crypto/routes.js';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

describe('directories', () => {
  it.each([
    ['', 5],
    ['?country=US', 2],
    ['?currency=EUR', 2],
    ['?country=MX&currency=MXN', 1],
    ['?country=MX&currency=USD', 0],
  ])('GET /discoveries%s: %i institutions', async (query, count) => {
    const answer = await t.call('GET', `/discoveries${query}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(count);
    for (const i of answer.body.data)
      expect(Object.keys(i).sort()).toEqual(['bankName', 'country', 'currency', 'displayName']);
  });

  it('GET /discoveries?country=usa: 400 naming country', async () => {
    expect(errorShape(await t.call('GET', '/discoveries?country=usa')).details.errors[0].field).toBe('country');
  });

  it('GET /uma-providers filters by country and currency, sorts, pages', async () => {
    const eu = await t.call('GET', '/uma-providers?countryCode=DE');
    expect(eu.body.data.map((p: any) => p.domain)).toEqual(['eu.uma.svc.test']);
    expect(eu.body.data[0].supportedCurrencies[0]).toMatchObject({ code: 'EUR', decimals: 2 });
    const usd = await t.call('GET', '/uma-providers?currencyCode=USD&sortOrder=desc');
    expect(usd.body.data.map((p: any) => p.name)).toEqual(['svc Sandbox UMA (US)', 'svc Sandbox UMA (MX)']);
    const page = await t.call('GET', '/uma-providers?limit=2');
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    const rest = await t.call('GET', `/uma-providers?limit=2&cursor=${page.body.nextCursor}`);
    expect(rest.body.data).toHaveLength(1);
  });

  it('GET /vasps pages the directory; every entry has a vaspName', async () => {
    const answer = await t.call('GET', '/vasps?limit=2');
    expect(answer.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(answer.body.data.every((v: any) => typeof v.vaspName === 'string')).toBe(true);
    expect((await t.call('GET', '/vasps?limit=0')).status).toBe(400);
  });

  it('GET /customers/end-user-terms: a version and an https URL', async () => {
    const answer = await t.call('GET', '/customers/end-user-terms');
    expect(answer.body).toEqual({ version: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
  });
});

describe('POST /crypto/estimate-withdrawal-fee', () => {
  const estimate = (body: object) =>
    t.call('POST', '/crypto/estimate-withdrawal-fee', {
      body: {
        internalAccountId: t.emu.fixtures.accountId,
        currency: 'USDC',
        cryptoNetwork: 'SOLANA',
        amount: 1_000_000,
        destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
        ...body,
      },
    });

  it.each(Object.entries(NETWORK_FEES))(
    '%s: the network fee in its asset, the total in cents, the rest net',
    async (network, fee) => {
      const answer = await estimate({ cryptoNetwork: network });
      expect(answer.body).toEqual({
        networkFee: fee.fee,
        networkFeeAsset: fee.asset,
        applicationFee: 0,
        totalFee: fee.cents,
        netAmount: 1_000_000 - fee.cents,
      });
    },
  );

  it.each([
    [{ currency: 'BTC' }, 400, 'currency'],
    [{ cryptoNetwork: 'DOGE' }, 400, 'cryptoNetwork'],
    [{ amount: 0 }, 400, 'amount'],
    [{ destinationAddress: 'short' }, 400, 'destinationAddress'],
  ])('%j: %i naming %s', async (body, status, field) => {
    const answer = await estimate(body);
    expect(errorShape(answer)).toMatchObject({ status, details: { errors: [expect.objectContaining({ field })] } });
  });

  it('an amount that does not cover the fee is 400 INVALID_AMOUNT; an unknown account 404', async () => {
    expect(errorShape(await estimate({ cryptoNetwork: 'ETHEREUM', amount: 100 })).code).toBe('INVALID_AMOUNT');
    expect((await estimate({ internalAccountId: 'InternalAccount:00000000-0000-0000-0000-000000000000' })).status).toBe(
      404,
    );
  });
});
