/**
 * The deprecated same-currency transfers over HTTP: every row of the spec's external-account
 * transfer table for a payout (transfer-out) and a pull (transfer-in), the 30-second row by moving
 * the emulator clock, and each refusal.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { accountBalances, externalAccount, fund, newCustomer } from './support.js';

let t: TestEmulator;
let customer: { id: string; usd: string; eur: string };
beforeAll(async () => {
  t = await testEmulator({ transactionLimits: { EUR: 50_000 } });
  customer = await newCustomer(t);
  await fund(t, customer.usd, 1_000_000);
  await fund(t, customer.eur, 1_000_000);
});
afterAll(() => t.close());

const out = (source: string, destination: string, amount: number, headers: Record<string, string> = {}) =>
  t.call('POST', '/transfer-out', {
    body: { source: { accountId: source }, destination: { accountId: destination }, amount },
    headers,
  });
const into = (source: string, destination: string, amount: number) =>
  t.call('POST', '/transfer-in', {
    body: { source: { accountId: source }, destination: { accountId: destination }, amount },
  });
const tx = async (id: string) => (await t.call('GET', `/transactions/${id}`)).body;

describe("transfer-out: the destination account's last three digits", () => {
  it.each([
    ['002', 'ACCOUNT_CANNOT_RECEIVE'],
    ['003', 'ACCOUNT_INVALID'],
    ['004', 'COUNTERPARTY_POST_TX_FAILED'],
  ])('%s fails at once (%s); no balance moves', async (suffix, reason) => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', suffix);
    const before = await accountBalances(t, customer.usd);
    const answer = await out(customer.usd, destination, 1_000);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      type: 'OUTGOING',
      status: 'FAILED',
      failureReason: reason,
      sentAmount: { amount: 1_000 },
    });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it('005 stays PENDING about 30 s of emulator time (the amount held), then fails and the hold comes back', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '005');
    const before = await accountBalances(t, customer.usd);
    const answer = await out(customer.usd, destination, 2_500);
    expect(answer.body.status).toBe('PENDING');
    expect(await accountBalances(t, customer.usd)).toEqual({
      balance: before.balance - 2_500,
      totalBalance: before.totalBalance,
    });
    t.emu.testing.advanceClock(29_000);
    expect((await tx(answer.body.id)).status).toBe('PENDING');
    t.emu.testing.advanceClock(1_000);
    expect(await tx(answer.body.id)).toMatchObject({ status: 'FAILED', failureReason: expect.any(String) });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it.each(['000', '001', '102', '105'])(
    '%s succeeds: the balance moves (the 1xx beneficiary range steers nothing)',
    async (suffix) => {
      const destination =
        suffix === '105'
          ? // 105 cannot be created (invalid account); a payout to another ending still completes.
            await externalAccount(t, customer.id, 'MXN_ACCOUNT', '106')
          : await externalAccount(t, customer.id, 'EUR_ACCOUNT', suffix);
      const source = suffix === '105' ? undefined : customer.eur;
      if (!source) {
        expect((await out(customer.usd, destination, 1_000)).body.code).toBe('INVALID_CURRENCY');
        return;
      }
      const before = await accountBalances(t, source);
      const answer = await out(source, destination, 1_000);
      expect(answer.body).toMatchObject({ status: 'COMPLETED', settledAt: expect.any(String) });
      expect(await accountBalances(t, source)).toEqual({
        balance: before.balance - 1_000,
        totalBalance: before.totalBalance - 1_000,
      });
    },
  );

  it('answers carry the deprecation marker, errors too', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '400');
    const ok = await out(customer.usd, destination, 10);
    expect(ok.headers.deprecation).toBe('true');
    expect(String(ok.headers.link)).toContain('/quotes>');
    const bad = await out(customer.usd, destination, 0);
    expect(bad.status).toBe(400);
    expect(bad.headers.deprecation).toBe('true');
  });
});

describe("transfer-in (a pull): the source account's last three digits", () => {
  it.each([['002'], ['003'], ['004']])('%s fails at once, COLLECTION_FAILED; nothing is credited', async (suffix) => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', suffix);
    const before = await accountBalances(t, customer.usd);
    const answer = await into(source, customer.usd, 700);
    expect(answer.body).toMatchObject({
      type: 'INCOMING',
      direction: 'DEBIT',
      status: 'FAILED',
      failureReason: 'COLLECTION_FAILED',
    });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it('005 stays PENDING 30 s, then fails; nothing is credited', async () => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', '005');
    const before = await accountBalances(t, customer.usd);
    const answer = await into(source, customer.usd, 700);
    expect(answer.body.status).toBe('PENDING');
    t.emu.testing.advanceClock(30_000);
    expect((await tx(answer.body.id)).status).toBe('FAILED');
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it('another ending completes and credits the internal account', async () => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', '107');
    const before = await accountBalances(t, customer.usd);
    const answer = await into(source, customer.usd, 700);
    expect(answer.body.status).toBe('COMPLETED');
    expect((await accountBalances(t, customer.usd)).balance).toBe(before.balance + 700);
  });
});

describe('refusals', () => {
  it('400 lists every bad field', async () => {
    const answer = await t.call('POST', '/transfer-out', {
      body: {
        source: { accountId: 'InternalAccount:1' },
        destination: {},
        amount: -5,
        remittanceInformation: 'x'.repeat(81),
      },
    });
    expect(errorShape(answer).details.errors.map((e: any) => e.field)).toEqual([
      'destination.accountId',
      'remittanceInformation',
    ]);
  });

  it('TRANSACTION_SIZE_LIMIT_EXCEEDED above the configured per-currency maximum (here EUR 50,000)', async () => {
    const destination = await externalAccount(t, customer.id, 'EUR_ACCOUNT', '500');
    expect((await out(customer.eur, destination, 50_000)).status).toBe(201);
    const over = await out(customer.eur, destination, 50_001);
    expect(errorShape(over)).toMatchObject({ status: 400, code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED' });
  });

  it('insufficient funds: 400 INVALID_AMOUNT, nothing moves', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '501');
    const before = await accountBalances(t, customer.usd);
    expect(errorShape(await out(customer.usd, destination, before.balance + 1))).toMatchObject({
      status: 400,
      code: 'INVALID_AMOUNT',
    });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED to an unproven self-custody wallet; INVALID_CURRENCY across currencies; 404s', async () => {
    const wallet = await t.call('POST', '/customers/external-accounts', {
      body: {
        customerId: customer.id,
        currency: 'BTC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qtransferunproven' },
      },
    });
    expect(errorShape(await out(customer.usd, wallet.body.id, 10))).toMatchObject({
      code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    });
    const eurAccount = await externalAccount(t, customer.id, 'EUR_ACCOUNT', '502');
    expect(errorShape(await out(customer.usd, eurAccount, 10))).toMatchObject({ code: 'INVALID_CURRENCY' });
    expect(errorShape(await out(customer.usd, `ExternalAccount:${randomUUID()}`, 10))).toMatchObject({ status: 404 });
    expect(errorShape(await into(`ExternalAccount:${randomUUID()}`, customer.usd, 10))).toMatchObject({ status: 404 });
  });

  it('Idempotency-Key: the same key gets the first answer, and moves money once', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '503');
    const before = await accountBalances(t, customer.usd);
    const key = randomUUID();
    const first = await out(customer.usd, destination, 300, { 'idempotency-key': key });
    const second = await out(customer.usd, destination, 300, { 'idempotency-key': key });
    expect(second.body).toEqual(first.body);
    expect((await accountBalances(t, customer.usd)).balance).toBe(before.balance - 300);
  });
});
