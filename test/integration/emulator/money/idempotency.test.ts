/**
 * Idempotency-Key on a money endpoint (transfer-out) over a day of emulator time: the first answer
 * under a key is the answer to every repeat for 24 hours, so a client that retries after a timeout
 * moves money once; after the day the key is forgotten. And the key's own bounds: 1 to 255
 * characters, else 400 naming Idempotency-Key, with nothing moved.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalances, externalAccount, fund, newCustomer } from './support.js';
import { errorShape, STILL, testEmulator, type TestEmulator } from '../support.js';

const HOUR = 60 * 60 * 1000;

let t: TestEmulator;
let customer: { id: string; usd: string };
let destination: string;
beforeAll(async () => {
  t = await testEmulator(STILL);
  customer = await newCustomer(t);
  await fund(t, customer.usd, 1_000_000);
  destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '000');
});
afterAll(() => t.close());

const payout = (amount: number, key?: string) =>
  t.call('POST', '/transfer-out', {
    body: { source: { accountId: customer.usd }, destination: { accountId: destination }, amount },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('Idempotency-Key over a day', () => {
  it('a retry 23 h 59 min later gets the first answer and moves nothing; after 24 h the key is new again', async () => {
    const key = randomUUID();
    const before = (await accountBalances(t, customer.usd)).balance;
    const first = await payout(700, key);
    expect(first.status).toBe(201);

    t.emu.testing.advanceClock(24 * HOUR - 60_000);
    const retry = await payout(700, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect((await accountBalances(t, customer.usd)).balance).toBe(before - 700);

    t.emu.testing.advanceClock(60_000 + 10_000);
    const later = await payout(700, key);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect((await accountBalances(t, customer.usd)).balance).toBe(before - 1_400);
  });
});

describe('the key itself', () => {
  it.each([
    ['an empty key', ''],
    ['a 256-character key', 'k'.repeat(256)],
  ])('%s is 400 INVALID_INPUT naming Idempotency-Key, and moves nothing', async (_name, key) => {
    const before = await accountBalances(t, customer.usd);
    expect(errorShape(await payout(500, key))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Idempotency-Key must be 1 to 255 characters',
      details: { errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }] },
    });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it('a 255-character key is accepted and works as a key', async () => {
    const key = `${randomUUID()}${'k'.repeat(255 - 36)}`;
    const first = await payout(300, key);
    expect(first.status).toBe(201);
    expect((await payout(300, key)).body).toEqual(first.body);
  });
});

describe('what a key holds', () => {
  it('a refused request keeps nothing: the corrected request under the same key goes through', async () => {
    const key = randomUUID();
    const before = (await accountBalances(t, customer.usd)).balance;
    expect((await payout(before + 1, key)).status).toBe(400);
    const corrected = await payout(250, key);
    expect(corrected.status).toBe(201);
    expect((await accountBalances(t, customer.usd)).balance).toBe(before - 250);
  });

  it('a key used for a payout is refused for another endpoint, naming where it was used', async () => {
    const key = randomUUID();
    expect((await payout(100, key)).status).toBe(201);
    const elsewhere = await t.call('POST', '/transfer-in', {
      body: { source: { accountId: destination }, destination: { accountId: customer.usd }, amount: 100 },
      headers: { 'idempotency-key': key },
    });
    expect(errorShape(elsewhere)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: `Idempotency-Key ${key} was used for /transfer-out; use a new key`,
      details: { errors: [{ field: 'Idempotency-Key', message: 'already used for /transfer-out' }] },
    });
  });
});
