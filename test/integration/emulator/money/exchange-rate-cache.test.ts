/**
 * The spec's exchange-rate cache ("about 5 minutes", Limits) on the emulator clock: a rate and its
 * `updatedAt` hold to the end of their 5-minute window, for GET /exchange-rates and for
 * quotes alike, and the next window brings a new rate.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testEmulator, type TestEmulator } from '../support.js';
import { accountQuote, fund, newCustomer, platformAccount } from './support.js';

const WINDOW = 5 * 60 * 1000;
/** The emulator clock also runs in real time (scale 1): leave room for the requests themselves. */
const SLACK = 2_000;
let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

async function usdToEur(): Promise<{ rate: number; updatedAt: number }> {
  const answer = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR');
  expect(answer.status).toBe(200);
  return { rate: answer.body.data[0].exchangeRate, updatedAt: Date.parse(answer.body.data[0].updatedAt) };
}

it('a rate holds for its whole 5-minute window of emulator time, then moves', async () => {
  const source = await platformAccount(t);
  await fund(t, source, 1_000_000);
  const { eur } = await newCustomer(t);
  const quoteRate = async () =>
    (await t.call('POST', '/quotes', { body: accountQuote(source, eur, 10_000) })).body.exchangeRate as number;

  // Start a second into a window (windows are aligned to the epoch), so the slack below always fits.
  t.emu.testing.advanceClock(WINDOW - (t.emu.testing.now() % WINDOW) + 1_000);
  const first = await usdToEur();
  expect(first.updatedAt).toBeLessThanOrEqual(t.emu.testing.now());
  // To the end of the window (less the time the requests take): the same rate, the same updatedAt,
  // and quotes use it.
  t.emu.testing.advanceClock(first.updatedAt + WINDOW - SLACK - t.emu.testing.now());
  expect(await usdToEur()).toEqual(first);
  expect(await quoteRate()).toBe(first.rate);
  // Just past the window the cache has expired: a new window, a new rate, for quotes too.
  t.emu.testing.advanceClock(SLACK);
  const next = await usdToEur();
  expect(next.updatedAt).toBe(first.updatedAt + WINDOW);
  expect(next.rate).not.toBe(first.rate);
  expect(await quoteRate()).toBe(next.rate);
});
