/**
 * Quotes over HTTP: every row of the spec's quote-execution table (the 6-minute and
 * returned-payment rows by moving the emulator clock), every source and destination kind,
 * execution with Idempotency-Key, the signed wallet flow, and each refusal.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, testEmulator, type TestEmulator } from '../support.js';
import { accountBalances, accountQuote, externalAccount, fund, newCustomer, platformAccount } from './support.js';

const MINUTE = 60_000;
let t: TestEmulator;
let platformUsd: string;
let customer: { id: string; usd: string; eur: string };
beforeAll(async () => {
  t = await testEmulator();
  platformUsd = await platformAccount(t);
  customer = await newCustomer(t);
  await fund(t, platformUsd, 50_000_000);
});
afterAll(() => t.close());

const quote = async (body: Record<string, unknown>) => {
  const answer = await t.call('POST', '/quotes', { body });
  if (answer.status !== 201) throw new Error(`quote: ${answer.status} ${answer.text}`);
  return answer.body;
};
const execute = (id: string, headers: Record<string, string> = {}) =>
  t.call('POST', `/quotes/${id}/execute`, { headers });
const tx = async (id: string) => (await t.call('GET', `/transactions/${id}`)).body;
const quoteStatus = async (id: string) => (await t.call('GET', `/quotes/${id}`)).body.status;

describe('execution to an external account, by the last three digits of its number', () => {
  const AMOUNT = 10_000;
  /** [suffix, statuses over time: [msAfter, tx status, quote status], failureReason, refund, net debit at the end] */
  const rows: Array<[string, Array<[number, string, string]>, string | undefined, object | undefined, boolean]> = [
    ['002', [[0, 'FAILED', 'FAILED']], 'QUOTE_EXECUTION_FAILED', undefined, false],
    [
      '003',
      [
        [0, 'PROCESSING', 'PROCESSING'],
        [6 * MINUTE - 5_000, 'PROCESSING', 'PROCESSING'],
        [5_000, 'COMPLETED', 'COMPLETED'],
      ],
      undefined,
      undefined,
      true,
    ],
    ['004', [[0, 'FAILED', 'FAILED']], 'ACCOUNT_CANNOT_RECEIVE', undefined, false],
    [
      '005',
      [
        [0, 'COMPLETED', 'COMPLETED'],
        [30_000, 'FAILED', 'FAILED'],
      ],
      'PAYOUT_RETURNED',
      undefined,
      false,
    ],
    [
      '006',
      [[0, 'FAILED', 'FAILED']],
      'QUOTE_EXECUTION_FAILED',
      { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
      false,
    ],
    ['007', [[0, 'FAILED', 'FAILED']], 'QUOTE_EXECUTION_FAILED', { status: 'FAILED' }, true],
    ['000', [[0, 'COMPLETED', 'COMPLETED']], undefined, undefined, true],
    ['103', [[0, 'COMPLETED', 'COMPLETED']], undefined, undefined, true],
  ];

  it.each(rows)('%s', async (suffix, timeline, failureReason, refund, debited) => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', suffix);
    const before = await accountBalances(t, platformUsd);
    const q = await quote(accountQuote(platformUsd, destination, AMOUNT));
    expect(q).toMatchObject({
      status: 'PENDING',
      totalSendingAmount: AMOUNT,
      feesIncluded: 30,
      totalReceivingAmount: AMOUNT - 30,
    });
    const executed = await execute(q.id);
    expect(executed.status).toBe(200);
    expect(executed.body.transactionId).toMatch(/^Transaction:/);
    for (const [advance, status, qStatus] of timeline) {
      if (advance > 0) t.emu.testing.advanceClock(advance);
      const now = await tx(executed.body.transactionId);
      expect(now.status).toBe(status);
      expect(await quoteStatus(q.id)).toBe(qStatus);
      const balances = await accountBalances(t, platformUsd);
      // Money on its way is held: out of the available balance, still in the total.
      if (status === 'PROCESSING')
        expect(balances).toEqual({ balance: before.balance - AMOUNT, totalBalance: before.totalBalance });
    }
    const final = await tx(executed.body.transactionId);
    expect(final.failureReason).toBe(failureReason);
    expect(
      final.refund
        ? { status: final.refund.status, ...(final.refund.reason ? { reason: final.refund.reason } : {}) }
        : undefined,
    ).toEqual(refund);
    expect(final).toMatchObject({
      type: 'OUTGOING',
      quoteId: q.id,
      sentAmount: { amount: AMOUNT },
      source: { accountId: platformUsd },
      destination: { accountId: destination },
    });
    const after = await accountBalances(t, platformUsd);
    const expected = before.balance - (debited ? AMOUNT : 0);
    expect(after).toEqual({ balance: expected, totalBalance: expected });
  });
});

describe('sources and destinations', () => {
  it('internal → internal: the destination is credited the receiving amount at once', async () => {
    const before = await accountBalances(t, customer.usd);
    const q = await quote(accountQuote(platformUsd, customer.usd, 5_000));
    const done = await execute(q.id);
    expect(done.body.status).toBe('COMPLETED');
    expect((await accountBalances(t, customer.usd)).balance).toBe(before.balance + q.totalReceivingAmount);
    const transaction = await tx(done.body.transactionId);
    expect(transaction).toMatchObject({ type: 'OUTGOING', status: 'COMPLETED', receivedAmount: { amount: 4_970 } });
  });

  it('internal USD → internal EUR converts at the quoted rate', async () => {
    const q = await quote(accountQuote(platformUsd, customer.eur, 10_030));
    expect(q.sendingCurrency.code).toBe('USD');
    expect(q.receivingCurrency.code).toBe('EUR');
    // The table's 0.92 euros a dollar, given as dollars per euro (the description's direction).
    expect(q.exchangeRate).toBe(1.086956522);
    expect(q.totalReceivingAmount).toBe(9_200);
  });

  it.each([
    ['002', 'FAILED', false],
    ['003', 'FAILED', false],
    ['004', 'FAILED', false],
    ['000', 'COMPLETED', true],
    ['102', 'COMPLETED', true],
  ])('pull (external source, immediatelyExecute) from an account ending %s: %s', async (suffix, status, credited) => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', suffix);
    const before = await accountBalances(t, customer.usd);
    const answer = await t.call('POST', '/quotes', {
      body: accountQuote(source, customer.usd, 2_030, { immediatelyExecute: true }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe(status);
    const transaction = await tx(answer.body.transactionId);
    expect(transaction).toMatchObject({ type: 'INCOMING', direction: 'DEBIT', status });
    if (status === 'FAILED') expect(transaction.failureReason).toBe('COLLECTION_FAILED');
    expect((await accountBalances(t, customer.usd)).balance).toBe(before.balance + (credited ? 2_000 : 0));
  });

  it('pull from an account ending 005 stays PENDING 30 s of emulator time, then fails; nothing is credited', async () => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', '005');
    const before = await accountBalances(t, customer.usd);
    const answer = await t.call('POST', '/quotes', {
      body: accountQuote(source, customer.usd, 2_030, { immediatelyExecute: true }),
    });
    expect(answer.body.status).toBe('PROCESSING');
    expect((await tx(answer.body.transactionId)).status).toBe('PENDING');
    t.emu.testing.advanceClock(29_000);
    expect((await tx(answer.body.transactionId)).status).toBe('PENDING');
    t.emu.testing.advanceClock(1_000);
    expect(await tx(answer.body.transactionId)).toMatchObject({ status: 'FAILED', failureReason: 'COLLECTION_FAILED' });
    expect(await accountBalances(t, customer.usd)).toEqual(before);
  });

  it.each([
    ['EUR', { accountType: 'EUR_ACCOUNT', iban: expect.any(String), paymentRails: ['SEPA_INSTANT'] }],
    ['MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: expect.stringMatching(/^\d{18}$/), paymentRails: ['SPEI'] }],
  ])(
    'real-time funding in %s: payment instructions of that currency, with the reference inside',
    async (code, info) => {
      const q = await quote({
        source: { sourceType: 'REALTIME_FUNDING', currency: code, customerId: customer.id },
        destination: { destinationType: 'ACCOUNT', accountId: customer.usd },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      });
      expect(q.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
        ...info,
        reference: expect.stringMatching(/^SVC/),
      });
    },
  );

  it('real-time funding to an external account: paid with POST /sandbox/send, then the execution table applies', async () => {
    const failing = await externalAccount(t, customer.id, 'USD_ACCOUNT', '002');
    const q = await quote({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: failing },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    // The description's PaymentUsdAccountInfo: discriminator USD_ACCOUNT, reference and rails inside it.
    expect(q.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'USD_ACCOUNT',
      reference: expect.stringMatching(/^SVC/),
      paymentRails: expect.arrayContaining(['RTP']),
    });
    expect(q.transactionId).toMatch(/^Transaction:/);
    expect(errorShape(await execute(q.id))).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const paid = await t.call('POST', '/sandbox/send', { body: { quoteId: q.id, currencyCode: 'USD' } });
    // The transaction is the one the quote named before it was paid.
    expect(paid.body.id).toBe(q.transactionId);
    expect(paid.body).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', quoteId: q.id });
    expect(await quoteStatus(q.id)).toBe('FAILED');
  });

  it('to a UMA address from an account: a magic address keeps its spec behaviour', async () => {
    const q = await quote({
      source: { sourceType: 'ACCOUNT', accountId: platformUsd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$fail.compliance.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    const done = await execute(q.id);
    expect(done.body.status).toBe('FAILED');
    expect(await tx(done.body.transactionId)).toMatchObject({
      failureReason: 'COMPLIANCE_REJECTED',
      destination: { destinationType: 'UMA_ADDRESS' },
    });
  });
});

describe('POST /quotes/{id}/execute and Idempotency-Key', () => {
  it('same key, same answer and one transaction; another quote with that key is 400; without a key a second call is 409', async () => {
    const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', '311');
    const q = await quote(accountQuote(platformUsd, destination, 1_000));
    const key = randomUUID();
    const first = await execute(q.id, { 'idempotency-key': key });
    const again = await execute(q.id, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await quote(accountQuote(platformUsd, destination, 1_000));
    expect(errorShape(await execute(other.id, { 'idempotency-key': key }))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'Idempotency-Key' }] },
    });
    expect(errorShape(await execute(q.id))).toMatchObject({ status: 409 });
    expect(errorShape(await execute(q.id, { 'idempotency-key': randomUUID() }))).toMatchObject({ status: 409 });
    const list = await t.call('GET', `/transactions?receiverAccountIdentifier=${destination}`);
    expect(list.body.data.filter((x: any) => x.quoteId === q.id)).toHaveLength(1);
  });

  it('a destination deleted after quoting: 400, nothing moves', async () => {
    const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', '315');
    const q = await quote(accountQuote(platformUsd, destination, 1_000));
    expect((await t.call('DELETE', `/customers/external-accounts/${destination}`)).status).toBe(204);
    const before = await accountBalances(t, platformUsd);
    expect(errorShape(await execute(q.id))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'quoteId' }] },
    });
    expect(await accountBalances(t, platformUsd)).toEqual(before);
  });

  it('an expired quote is 409; an unknown one 404 QUOTE_NOT_FOUND', async () => {
    const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', '312');
    const q = await quote(accountQuote(platformUsd, destination, 1_000));
    t.emu.testing.advanceClock(5 * MINUTE);
    expect(await quoteStatus(q.id)).toBe('EXPIRED');
    expect(errorShape(await execute(q.id))).toMatchObject({ status: 409 });
    expect(errorShape(await execute(`Quote:${randomUUID()}`))).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
  });

  it('insufficient funds: 400 and nothing moves', async () => {
    const poor = await newCustomer(t, 'Poor Person');
    const destination = await externalAccount(t, poor.id, 'USD_ACCOUNT', '313');
    const session = generateKeyPair();
    t.emu.testing.createSession(session.publicKey, { accountId: poor.usd });
    const q = await quote(accountQuote(poor.usd, destination, 1_000));
    const first = await execute(q.id);
    expect(first.status).toBe(202);
    const retry = await execute(q.id, signedHeaders(first.body, session.privateKey));
    expect(errorShape(retry)).toMatchObject({ status: 400, code: 'INVALID_AMOUNT' });
    expect(await accountBalances(t, poor.usd)).toEqual({ balance: 0, totalBalance: 0 });
    expect(await quoteStatus(q.id)).toBe('PENDING');
  });

  it('an embedded-wallet source is the two-step signed retry', async () => {
    const payer = await newCustomer(t, 'Wallet Payer');
    await fund(t, payer.usd, 100_000);
    const destination = await externalAccount(t, payer.id, 'USD_ACCOUNT', '314');
    const session = generateKeyPair();
    t.emu.testing.createSession(session.publicKey, { accountId: payer.usd });
    const q = await quote(accountQuote(payer.usd, destination, 10_000));
    const challenge = await execute(q.id);
    expect(challenge.status).toBe(202);
    expect(challenge.body).toMatchObject({
      payloadToSign: expect.stringContaining(q.id),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    expect(await quoteStatus(q.id)).toBe('PENDING');
    const stranger = generateKeyPair();
    expect(errorShape(await execute(q.id, signedHeaders(challenge.body, stranger.privateKey)))).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
    });
    expect(errorShape(await execute(q.id, { 'request-id': challenge.body.requestId }))).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_MISSING',
    });
    const done = await execute(q.id, signedHeaders(challenge.body, session.privateKey));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'COMPLETED', transactionId: expect.any(String) });
    expect(await accountBalances(t, payer.usd)).toEqual({ balance: 90_000, totalBalance: 90_000 });
    expect(errorShape(await execute(q.id))).toMatchObject({ status: 409 });
  });
});

describe('refusals at quote creation', () => {
  it('400 lists every bad field', async () => {
    const answer = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'CARD' },
        destination: { destinationType: 'ACCOUNT', accountId: 'x' },
        lockedCurrencySide: 'BOTH',
        lockedCurrencyAmount: 0,
        remittanceInformation: 'x'.repeat(81),
      },
    });
    expect(errorShape(answer).details.errors.map((e: any) => e.field)).toEqual([
      'source.sourceType',
      'lockedCurrencySide',
      'lockedCurrencyAmount',
      'remittanceInformation',
    ]);
  });

  describe('destination.currency: what the destination can receive, any other refused naming it', () => {
    let usdcWallet: string;
    beforeAll(async () => {
      const wallet = await t.call('POST', '/customers/external-accounts', {
        body: {
          customerId: customer.id,
          currency: 'USDC',
          accountInfo: { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
        },
      });
      expect(wallet.status, wallet.text).toBe(201);
      usdcWallet = wallet.body.id;
    });
    const toWallet = (currency: string) => ({
      destination: { destinationType: 'ACCOUNT', accountId: usdcWallet, currency },
    });
    const toUma = (umaAddress: string, currency: string) => ({
      destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency },
    });

    it.each([
      ['USDC to a USDC wallet', () => toWallet('USDC'), 201, undefined],
      ['USD to a USDC wallet', () => toWallet('USD'), 400, 'INVALID_CURRENCY'],
      ['a currency the description does not name', () => toWallet('XYZ'), 400, 'destination.currency'],
      ['EUR to a USDC wallet', () => toWallet('EUR'), 400, 'INVALID_CURRENCY'],
      ['USDT to a USDC wallet', () => toWallet('USDT'), 400, 'INVALID_CURRENCY'],
      ['EUR to a UMA address', () => toUma('$success.eur@sandbox.uma.money', 'EUR'), 201, undefined],
      ['USDC to a UMA address', () => toUma('$success.usd@sandbox.uma.money', 'USDC'), 400, 'destination.currency'],
      ['a lower-case code', () => toUma('$success.usd@sandbox.uma.money', 'usd'), 400, 'destination.currency'],
    ])('%s: %i %s', async (_what, body, status, problem) => {
      const answer = await t.call('POST', '/quotes', {
        body: { ...accountQuote(platformUsd, 'unused', 1_000), ...body() },
      });
      expect(answer.status, answer.text).toBe(status);
      if (problem === 'INVALID_CURRENCY') expect(errorShape(answer).code).toBe(problem);
      else if (problem) expect(errorShape(answer).details.errors.map((e: any) => e.field)).toEqual([problem]);
    });
  });

  it('TRANSACTION_SIZE_LIMIT_EXCEEDED above the configured maximum (default 10,000,000 USD cents)', async () => {
    const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', '321');
    expect((await t.call('POST', '/quotes', { body: accountQuote(platformUsd, destination, 10_000_000) })).status).toBe(
      201,
    );
    const over = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, destination, 10_000_001) });
    expect(errorShape(over)).toMatchObject({ status: 400, code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED' });
  });

  it('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED to a self-custody wallet that has not proven ownership', async () => {
    const wallet = await t.call('POST', '/customers/external-accounts', {
      body: {
        customerId: customer.id,
        currency: 'BTC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qunprovenwallet000' },
      },
    });
    const answer = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, wallet.body.id, 1_000) });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED' });
  });

  it('immediatelyExecute is refused for real-time funding and embedded-wallet sources; a wallet cannot be pulled from', async () => {
    const rt = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: customer.usd },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        immediatelyExecute: true,
      },
    });
    expect(errorShape(rt).details.errors[0].field).toBe('immediatelyExecute');
    const wallet = await t.call('POST', '/quotes', {
      body: accountQuote(customer.usd, platformUsd, 1_000, { immediatelyExecute: true }),
    });
    expect(errorShape(wallet).details.errors[0].field).toBe('immediatelyExecute');
    const spark = await externalAccount(t, customer.id, 'SPARK_WALLET', '331');
    const pull = await t.call('POST', '/quotes', {
      body: accountQuote(spark, customer.usd, 1_000, { immediatelyExecute: true }),
    });
    expect(errorShape(pull).details.errors[0].field).toBe('source.accountId');
  });

  it('400 naming an unknown account (POST /quotes declares no 404), SELF_PAYMENT for one account on both ends, INVALID_AMOUNT below the fee', async () => {
    const unknown = await t.call('POST', '/quotes', {
      body: accountQuote(`InternalAccount:${randomUUID()}`, `ExternalAccount:${randomUUID()}`, 1_000),
    });
    expect(errorShape(unknown)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(unknown.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'source.accountId',
      'destination.accountId',
    ]);
    expect(
      errorShape(await t.call('POST', '/quotes', { body: accountQuote(platformUsd, platformUsd, 1_000) })),
    ).toMatchObject({ status: 400, code: 'SELF_PAYMENT' });
    expect(
      errorShape(await t.call('POST', '/quotes', { body: accountQuote(platformUsd, customer.usd, 30) })),
    ).toMatchObject({ status: 400, code: 'INVALID_AMOUNT' });
  });
});

describe('GET /exchange-rates', () => {
  it('prices every pair with the platform fee; updatedAt marks the 5-minute window of emulator time', async () => {
    const first = await t.call(
      'GET',
      '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=MXN&sendingAmount=100030',
    );
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: any) => r.destinationCurrency.code)).toEqual(['EUR', 'MXN']);
    const eur = first.body.data[0];
    expect(eur).toMatchObject({
      sourceCurrency: { code: 'USD' },
      sendingAmount: 100_030,
      fees: { fixed: 30, total: 30 },
      destinationPaymentRail: 'SEPA_INSTANT',
      maxSendingAmount: 10_000_000,
    });
    expect(eur.receivingAmount).toBe(92_000); // 1,000.00 USD at 0.92
    // A quote made now uses the same table.
    const q = await quote(accountQuote(platformUsd, customer.eur, 100_030));
    expect(q.exchangeRate).toBe(eur.exchangeRate);
    const windowStart = Date.parse(eur.updatedAt);
    expect(windowStart).toBeLessThanOrEqual(t.emu.testing.now());
    t.emu.testing.advanceClock(5 * MINUTE);
    const later = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR');
    expect(Date.parse(later.body.data[0].updatedAt)).toBe(windowStart + 5 * MINUTE);
    const all = await t.call('GET', '/exchange-rates');
    // From each of the 41 currencies the description names to each of the 40 a payout can be made
    // in (not ARS, which no account type holds), but itself.
    expect(all.body.data).toHaveLength(41 * 40 - 40);
  });

  it('400 names each bad parameter', async () => {
    const bad = await t.call('GET', '/exchange-rates?sourceCurrency=usd&destinationCurrency=XYZ&sendingAmount=-1');
    // The description's schema first (sendingAmount has a minimum); the currencies are the area's rule after it.
    expect(errorShape(bad).details.errors.map((e: any) => e.field)).toEqual(['sendingAmount']);
    const currencies = await t.call('GET', '/exchange-rates?sourceCurrency=usd&destinationCurrency=XYZ');
    expect(errorShape(currencies).details.errors.map((e: any) => e.field)).toEqual([
      'sourceCurrency',
      'destinationCurrency[0]',
    ]);
  });
});
