/**
 * GET /exchange-rates over HTTP: the fixed table (the same rates at every moment; `updatedAt` is the
 * start of the spec's 5-minute cache window), the description's direction (sending units per
 * receiving unit), every currency the description names, and a 400 naming an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCY_CODES } from '../../../../src/service/currencies.js';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { accountQuote, fund, newCustomer, platformAccount } from './support.js';

const WINDOW = 5 * 60 * 1000;
let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const rows = async (query: string) => {
  const answer = await t.call('GET', `/exchange-rates?${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as any[];
};

describe('the rate table', () => {
  it('USD→INR: 82.5 rupees a dollar, shown as dollars per rupee; the fee comes off first', async () => {
    const [row] = await rows('sourceCurrency=USD&destinationCurrency=INR&sendingAmount=10000');
    expect(row).toMatchObject({
      sourceCurrency: { code: 'USD', decimals: 2 },
      destinationCurrency: { code: 'INR', decimals: 2 },
      destinationPaymentRail: 'UPI',
      sendingAmount: 10_000,
      exchangeRate: 0.01212121212,
      fees: { fixed: 30, total: 30 },
      receivingAmount: 822_525, // (100.00 − 0.30) × 82.5 rupees
    });
  });

  it('rates do not move with the clock; updatedAt is the start of the 5-minute window', async () => {
    const quoteRate = async (source: string, eur: string) =>
      (await t.call('POST', '/quotes', { body: accountQuote(source, eur, 10_000) })).body.exchangeRate as number;
    const source = await platformAccount(t);
    await fund(t, source, 1_000_000);
    const { eur } = await newCustomer(t);
    const first = (await rows('sourceCurrency=USD&destinationCurrency=EUR'))[0];
    expect(Date.parse(first.updatedAt) % WINDOW).toBe(0);
    expect(await quoteRate(source, eur)).toBe(first.exchangeRate);
    for (const step of [WINDOW, 7 * WINDOW + 1234, 24 * 3600 * 1000]) {
      t.emu.testing.advanceClock(step);
      const later = (await rows('sourceCurrency=USD&destinationCurrency=EUR'))[0];
      expect(later.exchangeRate).toBe(first.exchangeRate);
      expect(Date.parse(later.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
      expect(await quoteRate(source, eur)).toBe(first.exchangeRate);
    }
  });

  it('answers from every currency the description names, to the stablecoins and BTC too', async () => {
    for (const code of CURRENCY_CODES) {
      const data = await rows(`sourceCurrency=${code}`);
      expect(data.length, code).toBeGreaterThan(30);
      for (const row of data) {
        expect(row.exchangeRate, `${code}→${row.destinationCurrency.code}`).toBeGreaterThan(0);
        expect(row.minSendingAmount).toBeLessThanOrEqual(row.maxSendingAmount);
      }
    }
    const usd = await rows(
      'sourceCurrency=USD&destinationCurrency=USDC&destinationCurrency=USDT&destinationCurrency=BTC',
    );
    expect(usd.map((r) => [r.destinationCurrency.code, r.destinationCurrency.decimals, r.receivingAmount])).toEqual([
      ['USDC', 6, 99_700_000],
      ['USDT', 6, 99_700_000],
      ['BTC', 8, 99_700], // 99.70 USD at 100,000 USD a bitcoin, in satoshis
    ]);
  });

  it('a currency the description does not name is 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['sourceCurrency=XYZ', 'sourceCurrency'],
      ['sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=ABC', 'destinationCurrency'],
    ]) {
      const answer = await t.call('GET', `/exchange-rates?${query}`);
      expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
        expect.stringMatching(new RegExp(`^${field}`)),
      ]);
    }
  });
});

describe('real-time funding in every currency the description names', () => {
  it('each quote carries payment instructions in its currency and is paid with POST /sandbox/send', async () => {
    const { usd } = await newCustomer(t);
    for (const code of CURRENCY_CODES) {
      const quote = await t.call('POST', '/quotes', {
        body: {
          source: { sourceType: 'REALTIME_FUNDING', currency: code },
          destination: { destinationType: 'ACCOUNT', accountId: usd },
          lockedCurrencySide: 'RECEIVING',
          lockedCurrencyAmount: 1_000,
        },
      });
      expect(quote.status, `${code}: ${quote.text}`).toBe(201);
      expect(quote.body.sendingCurrency.code).toBe(code);
      expect(quote.body.paymentInstructions[0].accountOrWalletInfo.accountType).toEqual(expect.any(String));
      const paid = await t.call('POST', '/sandbox/send', { body: { quoteId: quote.body.id, currencyCode: code } });
      expect(paid.status, `${code}: ${paid.text}`).toBe(200);
    }
    const unknown = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'XYZ' },
        destination: { destinationType: 'ACCOUNT', accountId: usd },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 1_000,
      },
    });
    expect(errorShape(unknown).details.errors.map((e: { field: string }) => e.field)).toEqual(['source.currency']);
  });
});
