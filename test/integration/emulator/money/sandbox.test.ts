/** Sandbox money movement and the customer KYC magic values. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { requireUmaAddress } from '../../../../src/validate.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const balance = async (accountId = t.emu.fixtures.accountId): Promise<number> =>
  (await t.call('GET', `/internal-accounts/${accountId}`)).body.balance.amount;

describe('POST /sandbox/internal-accounts/{id}/fund', () => {
  it('credits the account and returns it with its balance', async () => {
    const before = await balance();
    const answer = await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, {
      body: { amount: 12_345 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: t.emu.fixtures.accountId,
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
      balance: {
        amount: before + 12_345,
        currency: { code: 'USD', name: expect.any(String), symbol: '$', decimals: 2 },
      },
    });
    const max = await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, {
      body: { amount: 100_000_000_000 },
    });
    expect(max.status).toBe(200);
  });

  it.each([0, -1, 1.5, '100', 100_000_000_001, null, true])('400 INVALID_INPUT for amount %j', async (amount) => {
    const answer = await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, {
      body: { amount },
    });
    expect(answer.status).toBe(400);
    expect(errorShape(answer)).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'amount' }] } });
  });

  it('404 for an unknown account', async () => {
    expect(
      (await t.call('POST', `/sandbox/internal-accounts/InternalAccount:${randomUUID()}/fund`, { body: { amount: 1 } }))
        .status,
    ).toBe(404);
  });
});

describe('POST /customers KYC magic', () => {
  it.each([
    ['Jane Doe001', 'PENDING'],
    ['Jane Doe002', 'REJECTED'],
    ['Jane Doe003', 'UNVERIFIED'],
    ['Jane Doe004', 'APPROVED'],
    ['Jane Doe', 'APPROVED'],
  ])('%s → kycStatus %s', async (fullName, kycStatus) => {
    const answer = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-01-31', nationality: 'US' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ id: expect.stringMatching(/^Customer:/), kycStatus, fullName });
    expect((await t.call('GET', `/customers/${answer.body.id}`)).body.kycStatus).toBe(kycStatus);
  });

  it('business customers start kybStatus UNVERIFIED', async () => {
    const answer = await t.call('POST', '/customers', {
      body: {
        customerType: 'BUSINESS',
        businessInfo: {
          legalName: 'Acme',
          registrationNumber: 'R-999',
          country: 'US',
          taxId: '12-3456789',
          incorporatedOn: '2015-06-01',
        },
      },
    });
    expect(answer.body).toMatchObject({ kybStatus: 'UNVERIFIED' });
    expect(answer.body).not.toHaveProperty('kycStatus');
  });

  it('400 lists every invalid field', async () => {
    type Refused = Array<{ field: string; constraint?: Record<string, unknown> }>;
    const body = {
      fullName: 'Ada Person',
      birthDate: '1990-02-30',
      nationality: 'usa',
      address: { line1: 'x', city: 'y', postalCode: '1', country: 'Germany' },
    };
    // An unknown customerType selects no shape: it alone is named, with the values it may take.
    const unknownType = await t.call('POST', '/customers', { body: { ...body, customerType: 'PERSON' } });
    const typeErrors = errorShape(unknownType).details.errors as Refused;
    expect(typeErrors.map((e) => e.field)).toEqual(['customerType']);
    expect(typeErrors[0]!.constraint).toEqual({ enum: ['INDIVIDUAL', 'BUSINESS'] });
    const answer = await t.call('POST', '/customers', { body: { ...body, customerType: 'INDIVIDUAL' } });
    const errors = errorShape(answer).details.errors as Refused;
    expect(errors.map((e) => e.field).sort()).toEqual(['address.country', 'birthDate', 'nationality']);
    const constraintOf = (field: string) => errors.find((e) => e.field === field)!.constraint;
    expect(constraintOf('birthDate')).toEqual({ format: 'date' });
    expect(constraintOf('nationality')).toMatchObject({ format: 'iso3166-1-alpha-2' });
    expect(constraintOf('address.country')).toMatchObject({ format: 'iso3166-1-alpha-2' });
  });
});

describe('quotes and POST /sandbox/send', () => {
  it('pays the fixture quote once: credits the destination and returns the transaction', async () => {
    const quote = await t.call('GET', `/quotes/${t.emu.fixtures.quoteId}`);
    expect(quote.body).toMatchObject({ status: 'PENDING', source: { sourceType: 'REALTIME_FUNDING' } });
    expect(quote.body.paymentInstructions[0].accountOrWalletInfo.reference).toMatch(/^SVC/);
    const before = await balance();
    const paid = await t.call('POST', '/sandbox/send', {
      body: { quoteId: t.emu.fixtures.quoteId, currencyCode: 'USD' },
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      id: expect.stringMatching(/^Transaction:/),
      status: 'COMPLETED',
      quoteId: t.emu.fixtures.quoteId,
    });
    expect(await balance()).toBe(before + quote.body.totalReceivingAmount);
    const again = await t.call('POST', '/sandbox/send', {
      body: { quoteId: t.emu.fixtures.quoteId, currencyCode: 'USD' },
    });
    expect(again.status).toBe(400);
    expect((await t.call('GET', `/quotes/${t.emu.fixtures.quoteId}`)).body.status).toBe('COMPLETED');
  });

  it('converts currencies and checks currency and amount', async () => {
    const created = await t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR' },
        destination: { destinationType: 'ACCOUNT', accountId: t.emu.fixtures.accountId },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 10_000,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      totalReceivingAmount: 10_000,
      sendingCurrency: { code: 'EUR' },
      receivingCurrency: { code: 'USD' },
    });
    // The rate table's EUR→USD rate: 0.92 euros (sending) per dollar (receiving), and the EUR fee.
    expect(created.body.exchangeRate).toBe(0.92);
    expect(created.body.feesIncluded).toBe(30);
    expect(created.body.totalSendingAmount).toBe(9_200 + 30);
    const id = created.body.id;
    const wrongCurrency = await t.call('POST', '/sandbox/send', { body: { quoteId: id, currencyCode: 'USD' } });
    expect(errorShape(wrongCurrency)).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    const wrongAmount = await t.call('POST', '/sandbox/send', {
      body: { quoteId: id, currencyCode: 'EUR', currencyAmount: 1 },
    });
    expect(errorShape(wrongAmount)).toMatchObject({ status: 400, code: 'INVALID_AMOUNT' });
    const ok = await t.call('POST', '/sandbox/send', {
      body: { quoteId: id, currencyCode: 'EUR', currencyAmount: created.body.totalSendingAmount },
    });
    expect(ok.status).toBe(200);
  });

  it('404 QUOTE_NOT_FOUND and 400 for bad fields', async () => {
    const missing = await t.call('POST', '/sandbox/send', {
      body: { quoteId: `Quote:${randomUUID()}`, currencyCode: 'USD' },
    });
    expect(errorShape(missing)).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
    const bad = await t.call('POST', '/sandbox/send', {
      body: { quoteId: 7, currencyCode: 'XYZ', currencyAmount: 'ten' },
    });
    expect(errorShape(bad).details.errors.map((e: { field: string }) => e.field)).toEqual([
      'quoteId',
      'currencyAmount',
    ]);
  });
});

describe('quotes to UMA magic destinations, paid with POST /sandbox/send', () => {
  const umaQuote = (umaAddress: string, currency: string) =>
    t.call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      },
    });

  it.each([
    ['$success.usd@sandbox.uma.money', 'USD', 'COMPLETED', 'COMPLETED'],
    ['$success.mxn@sandbox.uma.money', 'MXN', 'COMPLETED', 'COMPLETED'],
    ['$pending.long.usd@sandbox.uma.money', 'USD', 'PENDING', 'PROCESSING'],
    ['$fail.compliance.usd@sandbox.uma.money', 'USD', 'FAILED', 'FAILED'],
  ])('%s: the payment goes as the address says', async (address, currency, txStatus, quoteStatus) => {
    const quote = await umaQuote(address, currency);
    expect(quote.status).toBe(201);
    const paid = await t.call('POST', '/sandbox/send', { body: { quoteId: quote.body.id, currencyCode: 'USD' } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: txStatus, quoteId: quote.body.id });
    expect('settledAt' in paid.body).toBe(txStatus === 'COMPLETED');
    if (txStatus === 'FAILED') expect(paid.body.failureReason).toBe('COMPLIANCE_REJECTED');
    expect((await t.call('GET', `/quotes/${quote.body.id}`)).body).toMatchObject({
      status: quoteStatus,
      transactionId: paid.body.id,
    });
    expect(
      (await t.call('POST', '/sandbox/send', { body: { quoteId: quote.body.id, currencyCode: 'USD' } })).status,
    ).toBe(400);
  });

  it('400 INVALID_CURRENCY for a magic address quoted in another currency', async () => {
    expect(errorShape(await umaQuote('$success.eur@sandbox.uma.money', 'USD'))).toMatchObject({
      status: 400,
      code: 'INVALID_CURRENCY',
    });
  });
});

describe('POST /sandbox/uma/receive', () => {
  const receive = (sender: string, receiver = t.emu.fixtures.umaAddress, code = 'USD', amount = 500) =>
    t.call('POST', '/sandbox/uma/receive', {
      body: {
        senderUmaAddress: sender,
        receiverUmaAddress: receiver,
        receivingCurrencyCode: code,
        receivingCurrencyAmount: amount,
      },
    });

  it.each([
    ['$success.usd@sandbox.uma.money', 'COMPLETED', 'USD', true],
    ['$success.eur@any.sandbox.example', 'COMPLETED', 'EUR', true],
    ['$success.mxn@sandbox.uma.money', 'COMPLETED', 'MXN', true],
    ['$pending.long.usd@sandbox.uma.money', 'PENDING', 'USD', false],
    ['$fail.compliance.usd@sandbox.uma.money', 'FAILED', 'USD', false],
  ])('%s → %s', async (sender, status, sentCurrency, credits) => {
    const before = await balance();
    const answer = await receive(sender);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^Transaction:/),
      type: 'INCOMING',
      status,
      senderUmaAddress: sender,
      receiverUmaAddress: t.emu.fixtures.umaAddress,
      receivedAmount: { amount: 500, currency: { code: 'USD' } },
      sentAmount: { currency: { code: sentCurrency } },
    });
    expect(await balance()).toBe(before + (credits ? 500 : 0));
  });

  it('404 UMA_NOT_FOUND for an unknown receiver', async () => {
    const answer = await receive('$success.usd@sandbox.uma.money', '$nobody@emulator.svc.test');
    expect(errorShape(answer)).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
  });

  it.each([
    ['sender', 'success.usd@sandbox.uma.money', undefined],
    ['receiver', '$success.usd@sandbox.uma.money', 'ada-at-nowhere'],
    ['receiver with spaces', '$success.usd@sandbox.uma.money', '$a b@x.com'],
  ])('400 INVALID_UMA_ADDRESS for a malformed %s', async (_n, sender, receiver) => {
    const answer = await receive(sender, receiver);
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_UMA_ADDRESS' });
  });

  it('400 INVALID_UMA_ADDRESS names both addresses when both are malformed', async () => {
    const answer = await receive('nobody', 'nowhere');
    expect(errorShape(answer).details.errors.map((e: { field: string }) => e.field)).toEqual([
      'senderUmaAddress',
      'receiverUmaAddress',
    ]);
  });

  it('takes the receiver as customerId instead of receiverUmaAddress (one of them, not both, not neither)', async () => {
    const body = {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 700,
    };
    const before = await balance();
    const byId = await t.call('POST', '/sandbox/uma/receive', {
      body: { ...body, customerId: t.emu.fixtures.customerId },
    });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      customerId: t.emu.fixtures.customerId,
      receiverUmaAddress: t.emu.fixtures.umaAddress,
    });
    expect(await balance()).toBe(before + 700);
    const unknown = await t.call('POST', '/sandbox/uma/receive', {
      body: { ...body, customerId: `Customer:${randomUUID()}` },
    });
    expect(errorShape(unknown)).toMatchObject({ status: 404 });
    const neither = await t.call('POST', '/sandbox/uma/receive', { body });
    expect(errorShape(neither)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(neither.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['receiverUmaAddress']);
    const both = await t.call('POST', '/sandbox/uma/receive', {
      body: { ...body, customerId: t.emu.fixtures.customerId, receiverUmaAddress: t.emu.fixtures.umaAddress },
    });
    expect(errorShape(both)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('400 SENDER_NOT_ACCEPTED for a sender that is not a sandbox magic address', async () => {
    expect(errorShape(await receive('$alice@sandbox.uma.money'))).toMatchObject({
      status: 400,
      code: 'SENDER_NOT_ACCEPTED',
    });
  });

  it('judges address shape exactly as the CLI does: a "+" in the user part is well-formed', async () => {
    expect(requireUmaAddress('$alice+tips@sandbox.uma.money', '--sender')).toBe('$alice+tips@sandbox.uma.money');
    expect(errorShape(await receive('$alice+tips@sandbox.uma.money'))).toMatchObject({
      status: 400,
      code: 'SENDER_NOT_ACCEPTED',
    });
  });
});
