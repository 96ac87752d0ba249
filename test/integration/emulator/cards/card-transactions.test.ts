import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_EVENT_DELAY_MS } from '../../../../src/emulator/features/card-transactions/routes.js';
import {
  STILL,
  connectAgent,
  delivered,
  errorShape,
  eventually,
  nodeVerifyWebhook,
  testEmulator,
  useEmulatorWithWebhooks,
  type Delivery,
} from '../support.js';
import { accountBalances, autoPolicy, externalAccount, fund } from '../money/support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const { t, hooks } = useEmulatorWithWebhooks(STILL);

const FUNDS = 10_000;
const USD = { code: 'USD' };
const merchant = (descriptor: string) => ({ descriptor, mcc: '5814', country: 'US' });

interface Holder {
  customerId: string;
  accountId: string;
  cardId: string;
}

/** An approved cardholder whose USD account holds FUNDS, with an ACTIVE card on it. */
async function holder(): Promise<Holder> {
  const c = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Casey Card' } });
  const accounts = await t.call('GET', `/customers/internal-accounts?customerId=${c.body.id}`);
  const accountId = accounts.body.data.find((a: any) => a.balance.currency.code === 'USD').id;
  await fund(t, accountId, FUNDS);
  const card = await t.call('POST', '/cards', {
    body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [accountId] },
  });
  t.emu.testing.advanceClock(20); // the test emulator's issuer answers after 20 ms
  await eventually(async () => (await t.call('GET', `/cards/${card.body.id}`)).body.state === 'ACTIVE' || undefined);
  return { customerId: c.body.id, accountId, cardId: card.body.id };
}

async function simulate(cardId: string, kind: string, body: object): Promise<string> {
  const answer = await t.call('POST', `/sandbox/cards/${cardId}/simulate/${kind}`, { body });
  expect(answer.status, answer.text).toBe(202);
  expect(Object.keys(answer.body)).toEqual(['issuerTransactionToken']);
  return answer.body.issuerTransactionToken;
}

/** Lets the card events arrive: the clock moves, nothing sleeps. */
const arrive = (ms = CARD_EVENT_DELAY_MS) => t.emu.testing.advanceClock(ms);

/** The holder's card transactions, newest first, as GET /transactions lists them. */
async function listed(h: Holder): Promise<any[]> {
  const list = await t.call('GET', `/transactions?customerId=${h.customerId}`);
  expect(list.status).toBe(200);
  return list.body.data.filter((tx: any) => tx.type === 'CARD');
}

async function byToken(h: Holder, token: string): Promise<any> {
  return (await listed(h)).find((tx) => tx.issuerTransactionToken === token);
}

const get = async (id: string) => (await t.call('GET', `/transactions/${id}`)).body;

/** The CARD_TRANSACTION.* deliveries for a transaction, checked to verify with the published key. */
function hooksFor(id: string): Delivery[] {
  const mine = hooks.deliveries.filter((d) => d.body.type.startsWith('CARD_TRANSACTION.') && d.body.data.id === id);
  for (const d of mine) expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
  return mine;
}

async function typesFor(id: string, n: number): Promise<string[]> {
  await eventually(() => hooksFor(id).length >= n || undefined);
  return hooksFor(id).map((d) => d.body.type);
}

/** An approved authorization of `amount`, arrived. */
async function authorized(h: Holder, amount: number, descriptor = 'BLUE BOTTLE COFFEE SF'): Promise<any> {
  const token = await simulate(h.cardId, 'authorization', { amount, currency: USD, merchant: merchant(descriptor) });
  arrive();
  return byToken(h, token);
}

async function step(h: Holder, kind: string, body: object): Promise<any> {
  await simulate(h.cardId, kind, body);
  arrive();
  return get((body as { cardTransactionId: string }).cardTransactionId);
}

describe('authorization: the descriptor magic', () => {
  it('any other ending: AUTHORIZED, the amount pulled, the description shape, a signed AUTHORIZED webhook', async () => {
    const h = await holder();
    const token = await simulate(h.cardId, 'authorization', {
      amount: 1250,
      currency: USD,
      merchant: merchant('BLUE BOTTLE COFFEE SF'),
    });
    expect(await byToken(h, token)).toBeUndefined(); // asynchronous: nothing until the event arrives
    arrive();
    const tx = await byToken(h, token);
    expect(tx).toEqual({
      type: 'CARD',
      id: expect.stringMatching(/^CardTransaction:[0-9a-f-]{36}$/),
      cardId: h.cardId,
      customerId: h.customerId,
      platformCustomerId: expect.any(String),
      issuerTransactionToken: token,
      status: 'AUTHORIZED',
      direction: 'DEBIT',
      merchant: merchant('BLUE BOTTLE COFFEE SF'),
      authorizedAmount: {
        amount: 1250,
        currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
      },
      accountId: h.accountId,
      pullSummary: { count: 1, totalAmount: 1250, pendingCount: 0 },
      refundSummary: { count: 0, totalAmount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
      authorizedAt: tx.createdAt,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await get(tx.id)).toEqual(tx);
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 1250, totalBalance: FUNDS - 1250 });
    expect(await typesFor(tx.id, 1)).toEqual(['CARD_TRANSACTION.AUTHORIZED']);
    const d = hooksFor(tx.id)[0]!;
    expect(d.body.data).toEqual(tx);
    expect(d.body.id).toMatch(/^Webhook:/);
    await eventually(() =>
      hooks.deliveries.find(
        (x) =>
          x.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' &&
          x.body.data.id === h.accountId &&
          x.body.data.balance.amount === FUNDS - 1250,
      ),
    );
  });

  it.each([
    ['002 (insufficient funds)', 'AMAZON RETAIL US-002'],
    ['003 (card paused)', 'CORNER STORE 003'],
  ])('%s: declined, no transaction, no webhook, nothing moves', async (_row, descriptor) => {
    const h = await holder();
    const token = await simulate(h.cardId, 'authorization', {
      amount: 500,
      currency: USD,
      merchant: merchant(descriptor),
    });
    arrive();
    await delivered(t);
    expect(await byToken(h, token)).toBeUndefined();
    expect(hooks.deliveries.filter((d) => d.body.data?.cardId === h.cardId)).toEqual([]);
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
  });

  it('an amount beyond the balance, a frozen card: declined the same way', async () => {
    const h = await holder();
    const beyond = await simulate(h.cardId, 'authorization', {
      amount: FUNDS + 1,
      currency: USD,
      merchant: merchant('A'),
    });
    await t.call('PATCH', `/cards/${h.cardId}`, { body: { state: 'FROZEN' } });
    const frozen = await simulate(h.cardId, 'authorization', { amount: 1, currency: USD, merchant: merchant('B') });
    arrive();
    expect(await byToken(h, beyond)).toBeUndefined();
    expect(await byToken(h, frozen)).toBeUndefined();
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
  });

  it('005: the pull stays PENDING for 30 s of emulator time, then is confirmed', async () => {
    const h = await holder();
    const tx = await authorized(h, 700, 'SLOW PULL 005');
    expect(tx).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 700, pendingCount: 1 } });
    // Held: out of the available balance, still in the total.
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 700, totalBalance: FUNDS });
    t.emu.testing.advanceClock(29_000);
    expect((await get(tx.id)).pullSummary.pendingCount).toBe(1);
    t.emu.testing.advanceClock(1_000);
    const after = await get(tx.id);
    expect(after).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 700, pendingCount: 0 } });
    expect(after.lastEventAt).toBe(new Date(t.emu.testing.now()).toISOString());
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 700, totalBalance: FUNDS - 700 });
    expect(await typesFor(tx.id, 2)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.AUTHORIZED']);
  });

  it('006: AUTHORIZED, then the confirmation fails: EXCEPTION, the money back', async () => {
    const h = await holder();
    const token = await simulate(h.cardId, 'authorization', {
      amount: 900,
      currency: USD,
      merchant: merchant('UBER 006'),
    });
    arrive();
    const tx = await byToken(h, token);
    expect(tx).toMatchObject({ status: 'EXCEPTION', pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
    expect(await typesFor(tx.id, 2)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.EXCEPTION']);
    expect(hooksFor(tx.id)[1]!.body.data.status).toBe('EXCEPTION');
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
    const clear = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/clearing`, {
      body: { cardTransactionId: tx.id, amount: 900 },
    });
    expect(clear.status).toBe(400);
    expect(errorShape(clear).details.errors[0].field).toBe('cardTransactionId');
  });
});

describe('clearing', () => {
  it('below the authorization PARTIALLY_SETTLED, then up to it SETTLED; nothing more is pulled', async () => {
    const h = await holder();
    const tx = await authorized(h, 1000);
    const part = await step(h, 'clearing', { cardTransactionId: tx.id, amount: 400 });
    expect(part).toMatchObject({
      status: 'PARTIALLY_SETTLED',
      settledAmount: { amount: 400 },
      settlementSummary: { count: 1, totalAmount: 400 },
      lastEventAt: expect.any(String),
    });
    const done = await step(h, 'clearing', { cardTransactionId: tx.id, amount: 600 });
    expect(done).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 1000 },
      pullSummary: { count: 1, totalAmount: 1000 },
      settlementSummary: { count: 2, totalAmount: 1000 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 1000, totalBalance: FUNDS - 1000 });
    expect(await typesFor(tx.id, 3)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.SETTLED',
    ]);
  });

  it('above the authorization: a post-hoc pull of the excess (the tip)', async () => {
    const h = await holder();
    const tx = await authorized(h, 1000);
    const done = await step(h, 'clearing', { cardTransactionId: tx.id, amount: 1200 });
    expect(done).toMatchObject({
      status: 'SETTLED',
      authorizedAmount: { amount: 1000 },
      settledAmount: { amount: 1200 },
      pullSummary: { count: 2, totalAmount: 1200, pendingCount: 0 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 1200, totalBalance: FUNDS - 1200 });
  });

  it('above the authorization when the balance no longer covers the excess: EXCEPTION', async () => {
    const h = await holder();
    const tx = await authorized(h, FUNDS - 100);
    const done = await step(h, 'clearing', { cardTransactionId: tx.id, amount: FUNDS + 500 });
    expect(done).toMatchObject({
      status: 'EXCEPTION',
      settledAmount: { amount: FUNDS + 500 },
      pullSummary: { count: 2, totalAmount: FUNDS - 100, pendingCount: 0 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: 100, totalBalance: 100 });
    expect((await typesFor(tx.id, 2))[1]).toBe('CARD_TRANSACTION.EXCEPTION');
  });

  it('0 expires the authorization: SETTLED, the unused rest given back', async () => {
    const h = await holder();
    const whole = await authorized(h, 800);
    expect(await step(h, 'clearing', { cardTransactionId: whole.id, amount: 0 })).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
    const part = await authorized(h, 800);
    await step(h, 'clearing', { cardTransactionId: part.id, amount: 300 });
    expect(await step(h, 'clearing', { cardTransactionId: part.id, amount: 0 })).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 300 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 300, totalBalance: FUNDS - 300 });
  });

  it('on a 005 authorization: the expiry releases the money still held', async () => {
    const h = await holder();
    const tx = await authorized(h, 600, 'SLOW 005');
    await step(h, 'clearing', { cardTransactionId: tx.id, amount: 0 });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
    t.emu.testing.advanceClock(30_000);
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
    expect((await get(tx.id)).pullSummary).toEqual({ count: 1, totalAmount: 600, pendingCount: 0 });
  });
});

describe('return and return reversal', () => {
  it('a return of everything settled: REFUNDED and credited; its reversal: SETTLED and pulled again', async () => {
    const h = await holder();
    const tx = await authorized(h, 1500);
    await step(h, 'clearing', { cardTransactionId: tx.id, amount: 1500 });
    const back = await step(h, 'return', { cardTransactionId: tx.id, amount: 1500 });
    expect(back).toMatchObject({
      status: 'REFUNDED',
      refundedAmount: { amount: 1500 },
      refundSummary: { count: 1, totalAmount: 1500 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
    const reversed = await step(h, 'return_reversal', { cardTransactionId: tx.id });
    expect(reversed).toMatchObject({ status: 'SETTLED', refundSummary: { count: 0, totalAmount: 0 } });
    expect(reversed).not.toHaveProperty('refundedAmount');
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 1500, totalBalance: FUNDS - 1500 });
    expect(await typesFor(tx.id, 4)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.SETTLED',
      'CARD_TRANSACTION.REFUNDED',
      'CARD_TRANSACTION.SETTLED',
    ]);
  });

  it('a partial return keeps SETTLED with a refundedAmount; beyond the net settled amount is 400 naming amount', async () => {
    const h = await holder();
    const tx = await authorized(h, 1000);
    await step(h, 'clearing', { cardTransactionId: tx.id, amount: 1000 });
    expect(await step(h, 'return', { cardTransactionId: tx.id, amount: 400 })).toMatchObject({
      status: 'SETTLED',
      refundedAmount: { amount: 400 },
    });
    const beyond = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/return`, {
      body: { cardTransactionId: tx.id, amount: 601 },
    });
    expect(beyond.status).toBe(400);
    expect(errorShape(beyond)).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'amount' }] } });
    expect(await step(h, 'return', { cardTransactionId: tx.id, amount: 600 })).toMatchObject({ status: 'REFUNDED' });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
  });

  it.each([
    ['a clearing of a REFUNDED transaction', 'clearing', { amount: 10 }, 'cardTransactionId'],
    ['a return reversal of a SETTLED one', 'return_reversal', {}, 'cardTransactionId'],
    ['a return of an unsettled one', 'return', { amount: 10 }, 'cardTransactionId'],
  ])('impossible steps are 400 INVALID_INPUT naming the field: %s', async (_name, kind, extra, field) => {
    const h = await holder();
    const tx = await authorized(h, 100);
    if (kind !== 'return') await step(h, 'clearing', { cardTransactionId: tx.id, amount: 100 });
    if (kind === 'clearing') await step(h, 'return', { cardTransactionId: tx.id, amount: 100 });
    const answer = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/${kind}`, {
      body: { cardTransactionId: tx.id, ...extra },
    });
    expect(answer.status).toBe(400);
    expect(errorShape(answer)).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field }] } });
  });
});

describe('the other simulators', () => {
  it('authorization_advice re-sizes an open authorization, pulling more or giving back', async () => {
    const h = await holder();
    const tx = await authorized(h, 1000);
    expect(await step(h, 'authorization_advice', { cardTransactionId: tx.id, amount: 1300 })).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 1300 },
      pullSummary: { count: 2, totalAmount: 1300 },
    });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 1300, totalBalance: FUNDS - 1300 });
    await step(h, 'authorization_advice', { cardTransactionId: tx.id, amount: 200 });
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 200, totalBalance: FUNDS - 200 });
  });

  it('balance_inquiry: a 0-amount AUTHORIZED transaction that pulls nothing', async () => {
    const h = await holder();
    const token = await simulate(h.cardId, 'balance_inquiry', { merchant: merchant('SHELL OIL 12345678') });
    arrive();
    expect(await byToken(h, token)).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 0 },
      pullSummary: { count: 0, totalAmount: 0, pendingCount: 0 },
    });
  });

  it('financial_authorization settles in the one message; financial_credit_authorization credits', async () => {
    const h = await holder();
    const atm = await simulate(h.cardId, 'financial_authorization', {
      amount: 8000,
      currency: USD,
      merchant: merchant('ATM WITHDRAWAL 24TH ST'),
    });
    const push = await simulate(h.cardId, 'financial_credit_authorization', {
      amount: 4000,
      currency: USD,
      merchant: merchant('ACME PAYOUTS'),
    });
    arrive();
    expect(await byToken(h, atm)).toMatchObject({
      status: 'SETTLED',
      direction: 'DEBIT',
      settledAmount: { amount: 8000 },
    });
    const credit = await byToken(h, push);
    expect(credit).toMatchObject({ status: 'SETTLED', direction: 'CREDIT', pullSummary: { count: 0 } });
    expect(await typesFor(credit.id, 1)).toEqual(['CARD_TRANSACTION.SETTLED']);
    expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS - 4000, totalBalance: FUNDS - 4000 });
  });

  it.each(['credit_authorization', 'credit_authorization_advice'])(
    '%s: a CREDIT authorization; its clearing credits the account',
    async (kind) => {
      const h = await holder();
      const token = await simulate(h.cardId, kind, {
        amount: 2500,
        currency: USD,
        merchant: merchant('ACME MARKETPLACE'),
      });
      arrive();
      const tx = await byToken(h, token);
      expect(tx).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT' });
      expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS, totalBalance: FUNDS });
      expect(await step(h, 'clearing', { cardTransactionId: tx.id, amount: 2500 })).toMatchObject({
        status: 'SETTLED',
      });
      expect(await accountBalances(t, h.accountId)).toEqual({ balance: FUNDS + 2500, totalBalance: FUNDS + 2500 });
    },
  );
});

describe('GET /transactions', () => {
  it('lists card transactions with the others, newest first; the type filter (INCOMING/OUTGOING) leaves them out', async () => {
    const h = await holder();
    const first = await authorized(h, 10);
    const second = await authorized(h, 20);
    const all = await t.call('GET', `/transactions?customerId=${h.customerId}`);
    expect(all.body.data.map((tx: any) => tx.id)).toEqual([second.id, first.id]);
    const asc = await t.call('GET', `/transactions?customerId=${h.customerId}&sortOrder=asc`);
    expect(asc.body.data.map((tx: any) => tx.id)).toEqual([first.id, second.id]);
    const outgoing = await t.call('GET', `/transactions?customerId=${h.customerId}&type=OUTGOING`);
    expect(outgoing.body.data).toEqual([]);
    const bySender = await t.call('GET', `/transactions?senderAccountIdentifier=${h.accountId}`);
    expect(bySender.body.data.map((tx: any) => tx.id)).toEqual([second.id, first.id]);
  });

  it('merges card transactions and payments by creation time', async () => {
    const h = await holder();
    const bank = await externalAccount(t, h.customerId, 'USD_ACCOUNT');
    const card1 = await authorized(h, 10);
    t.emu.testing.advanceClock(10);
    const payout = await t.call('POST', '/transfer-out', {
      body: { source: { accountId: h.accountId }, destination: { accountId: bank }, amount: 100 },
    });
    expect(payout.status, payout.text).toBe(201);
    t.emu.testing.advanceClock(10);
    const card2 = await authorized(h, 20);
    const asc = await t.call('GET', `/transactions?customerId=${h.customerId}&sortOrder=asc&limit=2`);
    expect(asc.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const rest = await t.call(
      'GET',
      `/transactions?customerId=${h.customerId}&sortOrder=asc&cursor=${asc.body.nextCursor}`,
    );
    expect([...asc.body.data, ...rest.body.data].map((tx: any) => [tx.id, tx.type])).toEqual([
      [card1.id, 'CARD'],
      [payout.body.id, 'OUTGOING'],
      [card2.id, 'CARD'],
    ]);
    const outgoing = await t.call('GET', `/transactions?customerId=${h.customerId}&type=OUTGOING`);
    expect(outgoing.body.data.map((tx: any) => tx.id)).toEqual([payout.body.id]);
  });
});

describe('agents', () => {
  it("an agent sees its customer's card transactions only, in the list and by id", async () => {
    const mine = await holder();
    const theirs = await holder();
    const own = await authorized(mine, 10);
    const other = await authorized(theirs, 20);
    const { bearer } = await connectAgent(t, mine.customerId, autoPolicy(100_000));
    const list = await t.call('GET', '/transactions', { auth: bearer });
    expect(list.status, list.text).toBe(200);
    const ids = list.body.data.map((tx: any) => tx.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(other.id);
    expect((await t.call('GET', `/transactions/${own.id}`, { auth: bearer })).status).toBe(200);
    expect((await t.call('GET', `/transactions/${other.id}`, { auth: bearer })).status).toBe(404);
    const foreign = await t.call('POST', `/sandbox/cards/${theirs.cardId}/simulate/clearing`, {
      auth: bearer,
      body: { cardTransactionId: other.id, amount: 1 },
    });
    expect(foreign.status).toBe(404);
  });
});

describe('refusals', () => {
  it('an unknown card is 404; an unknown or another card’s transaction is 404 TRANSACTION_NOT_FOUND', async () => {
    const h = await holder();
    const unknownCard = await t.call(
      'POST',
      '/sandbox/cards/Card:00000000-0000-4000-8000-000000000000/simulate/authorization',
      {
        body: { amount: 1, currency: USD, merchant: merchant('X') },
      },
    );
    expect(unknownCard.status).toBe(404);
    errorShape(unknownCard);
    const unknownTx = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/clearing`, {
      body: { cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000000', amount: 1 },
    });
    expect(unknownTx.status).toBe(404);
    expect(errorShape(unknownTx).code).toBe('TRANSACTION_NOT_FOUND');
    const other = await holder();
    const tx = await authorized(h, 10);
    const foreign = await t.call('POST', `/sandbox/cards/${other.cardId}/simulate/clearing`, {
      body: { cardTransactionId: tx.id, amount: 1 },
    });
    expect(foreign.status).toBe(404);
    expect((await t.call('GET', '/transactions/CardTransaction:00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
  });

  it.each([
    ['cancel', 400, 'INVALID_INPUT'],
    ['confirm', 400, 'INVALID_INPUT'],
    ['approve', 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'],
    ['reject', 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'],
  ])(
    'POST /transactions/{id}/%s on a card transaction: %i %s, the transaction unchanged',
    async (verb, status, code) => {
      const h = await holder();
      const tx = await authorized(h, 10);
      const answer = await t.call('POST', `/transactions/${tx.id}/${verb}`, { body: {} });
      expect(errorShape(answer)).toMatchObject({ status, code });
      if (status === 400) expect(answer.body.details.errors.map((e: any) => e.field)).toEqual(['transactionId']);
      expect(await get(tx.id)).toEqual(tx);
      const unknown = await t.call(
        'POST',
        `/transactions/CardTransaction:00000000-0000-4000-8000-000000000000/${verb}`,
        {
          body: {},
        },
      );
      expect(errorShape(unknown)).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
    },
  );

  it('a bad body is 400 INVALID_INPUT listing every bad field', async () => {
    const h = await holder();
    const answer = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/authorization`, {
      body: { amount: 0, currency: { code: 'EUR' }, merchant: { mcc: '58' } },
    });
    expect(answer.status).toBe(400);
    const fields = errorShape(answer).details.errors.map((e: any) => e.field);
    expect(fields).toEqual(['amount', 'merchant.descriptor']);
    const clearing = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/clearing`, {
      body: { cardTransactionId: 'Transaction:1', amount: -1 },
    });
    expect(errorShape(clearing).details.errors.map((e: any) => e.field)).toEqual(['amount']);
    const notJson = await t.call('POST', `/sandbox/cards/${h.cardId}/simulate/return_reversal`, { body: 'nope' });
    expect(notJson.status).toBe(400);
  });
});

describe('a restart with --state', () => {
  it('delivers the card events accepted before it and confirms the pulls still pending', async () => {
    const statePath = join(tempDir('svc-emu-cardtx-'), 'state.json');
    const first = await testEmulator({ ...STILL, statePath });
    const { cardId, accountId, customerId } = first.emu.fixtures;
    await fund(first, accountId, FUNDS);
    const auth = (descriptor: string) =>
      first.call('POST', `/sandbox/cards/${cardId}/simulate/authorization`, {
        body: { amount: 100, currency: USD, merchant: merchant(descriptor) },
      });
    await auth('SLOW 005');
    first.emu.testing.advanceClock(CARD_EVENT_DELAY_MS); // arrived: its pull pending for 30 s
    const waiting = (await auth('NOT YET ARRIVED')).body.issuerTransactionToken;
    await first.close();

    const second = await testEmulator({ ...STILL, statePath });
    try {
      const cardTxs = async () =>
        (await second.call('GET', `/transactions?customerId=${customerId}`)).body.data.filter(
          (x: any) => x.type === 'CARD',
        );
      expect((await cardTxs()).map((x: any) => x.pullSummary.pendingCount)).toEqual([1]);
      // The new emulator's clock starts from the wall clock, not where the first one stopped: jump well past 30 s.
      second.emu.testing.advanceClock(60_000);
      const after = await cardTxs();
      expect(after.map((x: any) => [x.issuerTransactionToken === waiting, x.pullSummary.pendingCount])).toEqual([
        [true, 0],
        [false, 0],
      ]);
      expect(await accountBalances(second, accountId)).toEqual({ balance: FUNDS - 200, totalBalance: FUNDS - 200 });
    } finally {
      await second.close();
    }
  });
});
