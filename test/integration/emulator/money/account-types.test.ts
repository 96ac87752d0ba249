/**
 * Every external-account type of the description, end to end: a body valid against the
 * description is taken for a customer and for the platform, a quote from the platform's dollars
 * pays out to it in its currency and is executed, and GET /exchange-rates lists that currency.
 * Then the payouts an integrator tries first abroad (BRL by PIX, INR by UPI, NGN by bank transfer)
 * with their signed webhooks, by quote on a course that takes emulator time and by transfer-out
 * from the platform's account in that currency.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES } from '../../../../src/service/account-types.js';
import { ContractValidator } from '../../../contract/validator.js';
import {
  delivered,
  errorShape,
  nodeVerifyWebhook,
  testEmulator,
  webhookReceiver,
  type Receiver,
  type TestEmulator,
} from '../support.js';
import { ACCOUNT_SAMPLES } from './account-samples.js';
import { fund, newCustomer, platformAccount } from './support.js';

const description = new ContractValidator(fileURLToPath(new URL('../../../contract/api-schema.json', import.meta.url)));
const createOperation = description.match('POST', '/customers/external-accounts')!;

let t: TestEmulator;
let hooks: Receiver;
let customerId: string;
let platformUsd: string;
beforeAll(async () => {
  t = await testEmulator();
  hooks = await webhookReceiver();
  await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
  customerId = (await newCustomer(t)).id;
  platformUsd = await platformAccount(t);
  await fund(t, platformUsd, 100_000_000);
});
afterAll(async () => {
  await t.close();
  await hooks.close();
});

const payout = (accountId: string, amount = 10_000) => ({
  source: { sourceType: 'ACCOUNT', accountId: platformUsd },
  destination: { destinationType: 'ACCOUNT', accountId },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

it('the samples cover the 46 types of the description', () => {
  expect(Object.keys(ACCOUNT_SAMPLES).sort()).toEqual(Object.keys(ACCOUNT_TYPES).sort());
  expect(Object.keys(ACCOUNT_SAMPLES)).toHaveLength(46);
});

it('a currency the description does not name is 400 naming currency, for a customer and for the platform', async () => {
  const { accountInfo } = ACCOUNT_SAMPLES.USD_ACCOUNT!;
  for (const [path, body] of [
    ['/customers/external-accounts', { customerId, currency: 'XYZ', accountInfo }],
    ['/platform/external-accounts', { currency: 'XYZ', accountInfo }],
  ] as const) {
    const answer = await t.call('POST', path, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toContain('currency');
    expect(answer.body.message).toContain('currency');
  }
});

describe.each(Object.entries(ACCOUNT_SAMPLES))('%s', (accountType, sample) => {
  it('is taken for a customer and for the platform; a quote pays out to it in its currency', async () => {
    const body = { customerId, currency: sample.currency, accountInfo: sample.accountInfo };
    expect(description.request(createOperation, body).errors).toEqual([]);

    const mine = await t.call('POST', '/customers/external-accounts', { body });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body).toMatchObject({ customerId, currency: sample.currency, status: 'ACTIVE' });
    const rails = ACCOUNT_TYPES[accountType]!.paymentRails;
    if (rails) expect(mine.body.accountInfo.paymentRails).toEqual(rails);
    const { customerId: _, ...platformBody } = body;
    const theirs = await t.call('POST', '/platform/external-accounts', { body: platformBody });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body).not.toHaveProperty('customerId');

    for (const id of [mine.body.id, theirs.body.id]) {
      const quote = await t.call('POST', '/quotes', { body: payout(id) });
      expect(quote.status, quote.text).toBe(201);
      expect(quote.body.receivingCurrency.code).toBe(sample.currency);
      expect(quote.body.totalReceivingAmount).toBeGreaterThan(0);
      const done = await t.call('POST', `/quotes/${quote.body.id}/execute`);
      expect(done.status, done.text).toBe(200);
      const tx = await t.call('GET', `/transactions/${done.body.transactionId}`);
      expect(tx.body).toMatchObject({
        status: 'COMPLETED',
        receivedAmount: { amount: quote.body.totalReceivingAmount, currency: { code: sample.currency } },
      });
    }

    const rates = await t.call('GET', `/exchange-rates?sourceCurrency=USD&destinationCurrency=${sample.currency}`);
    expect(rates.body.data.map((r: any) => r.destinationCurrency.code)).toEqual(
      sample.currency === 'USD' ? [] : [sample.currency],
    );
  });
});

describe.each([
  ['BRL', 'BRL_ACCOUNT', { pixKey: 'ada010@pix.example.com' }],
  ['INR', 'INR_ACCOUNT', { vpa: 'ada010@upi' }],
  ['NGN', 'NGN_ACCOUNT', { accountNumber: '0123456010' }],
])('a transfer-out in %s', (currency, accountType, identifier) => {
  it("from the platform's account in that currency, funded in the sandbox: COMPLETED, with its webhook", async () => {
    const sample = ACCOUNT_SAMPLES[accountType]!;
    const account = await t.call('POST', '/platform/external-accounts', {
      body: { currency, accountInfo: { ...sample.accountInfo, ...identifier } },
    });
    expect(account.status, account.text).toBe(201);
    const source = await platformAccount(t, currency);
    await fund(t, source, 500_000);
    const sent = await t.call('POST', '/transfer-out', {
      body: { source: { accountId: source }, destination: { accountId: account.body.id }, amount: 123_400 },
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({
      status: 'COMPLETED',
      receivedAmount: { amount: 123_400, currency: { code: currency } },
    });
    await delivered(t);
    expect(
      hooks.deliveries.some((d) => d.body.type === 'OUTGOING_PAYMENT.COMPLETED' && d.body.data.id === sent.body.id),
    ).toBe(true);
  });
});

describe.each([
  ['BRL by PIX', 'BRL_ACCOUNT', { pixKey: 'ada003@pix.example.com' }, 'PIX'],
  ['INR by UPI', 'INR_ACCOUNT', { vpa: 'ada003@upi' }, 'UPI'],
  ['NGN by bank transfer', 'NGN_ACCOUNT', { accountNumber: '0123456003' }, 'BANK_TRANSFER'],
])('a payout in %s', (_what, accountType, identifier, rail) => {
  it('PROCESSING, then COMPLETED 6 minutes of emulator time later (suffix 003), each announced by a signed webhook', async () => {
    const sample = ACCOUNT_SAMPLES[accountType]!;
    const account = await t.call('POST', '/customers/external-accounts', {
      body: { customerId, currency: sample.currency, accountInfo: { ...sample.accountInfo, ...identifier } },
    });
    expect(account.status, account.text).toBe(201);
    expect(account.body.accountInfo.paymentRails).toContain(rail);
    const quote = await t.call('POST', '/quotes', {
      body: {
        ...payout(account.body.id, 50_030),
        destination: { ...payout(account.body.id).destination, paymentRail: rail },
      },
    });
    expect(quote.status, quote.text).toBe(201);
    const done = await t.call('POST', `/quotes/${quote.body.id}/execute`);
    expect(done.status, done.text).toBe(200);
    const id = done.body.transactionId;
    await delivered(t);
    const about = () => hooks.deliveries.filter((d) => d.body.data?.id === id);
    expect(about().map((d) => d.body.type)).toEqual(['OUTGOING_PAYMENT.PROCESSING']);
    t.emu.testing.advanceClock(6 * 60 * 1000);
    await delivered(t);
    expect(about().map((d) => d.body.type)).toEqual(['OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    const last = about().at(-1)!;
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, last)).toBe(true);
    expect(last.body.data).toMatchObject({
      status: 'COMPLETED',
      quoteId: quote.body.id,
      receivedAmount: { amount: quote.body.totalReceivingAmount, currency: { code: sample.currency } },
      exchangeRate: quote.body.exchangeRate,
    });
  });
});

describe('a stablecoin wallet', () => {
  const solana = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const create = (body: Record<string, unknown>) => t.call('POST', '/customers/external-accounts', { body });

  it('a USDC wallet is paid in USDC: a quote from a USD account receives USDC (6 decimals) and pays out', async () => {
    const c = await newCustomer(t);
    const platformUsd = await platformAccount(t);
    await fund(t, platformUsd, 5_000);
    const made = await create({
      customerId: c.id,
      currency: 'USDC',
      accountInfo: { accountType: 'SOLANA_WALLET', address: solana, vaspName: 'Sandbox VASP' },
    });
    const quote = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId: platformUsd },
        destination: { destinationType: 'ACCOUNT', accountId: made.body.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_030,
        immediatelyExecute: true,
      },
    });
    expect(quote.status, quote.text).toBe(201);
    expect(quote.body).toMatchObject({
      receivingCurrency: { code: 'USDC', decimals: 6 },
      exchangeRate: 1,
      totalReceivingAmount: 10_000_000, // (10.30 − 0.30) USD → 10 USDC
    });
    const sent = await t.call('GET', `/transactions/${quote.body.transactionId}`);
    expect(sent.body).toMatchObject({ status: 'COMPLETED', receivedAmount: { amount: 10_000_000 } });
  });

  it('a transfer-out from a USD account to a USDC wallet is INVALID_CURRENCY: converting takes a quote', async () => {
    const c = await newCustomer(t);
    await t.call('POST', `/sandbox/internal-accounts/${c.usd}/fund`, { body: { amount: 5_000 } });
    const made = await create({
      customerId: c.id,
      currency: 'USDC',
      accountInfo: { accountType: 'SOLANA_WALLET', address: solana, vaspName: 'Sandbox VASP' },
    });
    const sent = await t.call('POST', '/transfer-out', {
      body: { source: { accountId: c.usd }, destination: { accountId: made.body.id }, amount: 1_000 },
    });
    expect(errorShape(sent)).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
  });
});
