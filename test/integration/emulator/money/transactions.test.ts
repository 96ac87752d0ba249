/**
 * Transactions over HTTP: the list's filters and paging, the payment and balance webhooks every
 * state change emits (signed like card events), and a reconciliation after a run of scenarios:
 * every internal account's balances equal what was funded plus what its transactions say.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectAgent,
  delivered,
  errorShape,
  nodeVerifyWebhook,
  type Receiver,
  testEmulator,
  type TestEmulator,
  webhookReceiver,
} from '../support.js';
import { accountBalances, accountQuote, externalAccount, fund, newCustomer, platformAccount } from './support.js';

let t: TestEmulator;
let hooks: Receiver;
let customer: { id: string; usd: string; eur: string };
let platformUsd: string;
const funded = new Map<string, number>();
const addFunds = async (id: string, amount: number) => {
  await fund(t, id, amount);
  funded.set(id, (funded.get(id) ?? 0) + amount);
};

beforeAll(async () => {
  t = await testEmulator();
  hooks = await webhookReceiver();
  await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
  customer = await newCustomer(t);
  platformUsd = await platformAccount(t);
  await addFunds(customer.usd, 500_000);
  await addFunds(platformUsd, 5_000_000);
});
afterAll(async () => {
  await t.close();
  await hooks.close();
});

const out = (source: string, destination: string, amount: number) =>
  t.call('POST', '/transfer-out', {
    body: { source: { accountId: source }, destination: { accountId: destination }, amount },
  });
/**
 * Deliveries run concurrently, so arrival order is not emission order: order by the envelope's
 * timestamp (emulator time), a refund event after the failure it follows at the same instant.
 */
const byEmission = (a: { body: any }, b: { body: any }) =>
  a.body.timestamp.localeCompare(b.body.timestamp) ||
  Number(a.body.type.includes('REFUND')) - Number(b.body.type.includes('REFUND'));
const events = (id: string) =>
  hooks.deliveries
    .filter((d) => d.body.data?.id === id)
    .sort(byEmission)
    .map((d) => d.body.type);

describe('webhooks', () => {
  it('a payout held 30 s then failed: PENDING, FAILED and a BALANCE_UPDATED for the hold and for its release; all signed', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '005');
    const answer = await out(customer.usd, destination, 1_000);
    t.emu.testing.advanceClock(30_000);
    await delivered(t);
    expect(events(answer.body.id)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.FAILED']);
    const balanceEvents = hooks.deliveries
      .filter((d) => d.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && d.body.data.id === customer.usd)
      .sort(byEmission);
    const last2 = balanceEvents.slice(-2).map((d) => [d.body.data.balance.amount, d.body.data.totalBalance.amount]);
    const { balance } = await accountBalances(t, customer.usd);
    expect(last2).toEqual([
      [balance - 1_000, balance],
      [balance, balance],
    ]);
    for (const d of hooks.deliveries) expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
  });

  it('a failure at once moves no balance and emits no BALANCE_UPDATED', async () => {
    const destination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '002');
    await delivered(t);
    const before = hooks.deliveries.length;
    const answer = await out(customer.usd, destination, 1_000);
    await delivered(t);
    expect(hooks.deliveries.slice(before).map((d) => d.body.type)).toEqual(['OUTGOING_PAYMENT.FAILED']);
    expect(events(answer.body.id)).toEqual(['OUTGOING_PAYMENT.FAILED']);
  });

  it('quote rows: 003 PROCESSING then COMPLETED; 005 COMPLETED then FAILED; 006 and 007 send their refund event', async () => {
    const run = async (suffix: string) => {
      const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', suffix);
      const q = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, destination, 5_000) });
      return (await t.call('POST', `/quotes/${q.body.id}/execute`)).body.transactionId as string;
    };
    const slow = await run('003');
    const returned = await run('005');
    const cancelled = await run('006');
    const lost = await run('007');
    t.emu.testing.advanceClock(6 * 60_000);
    await delivered(t);
    expect(events(slow)).toEqual(['OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    expect(events(returned)).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.FAILED']);
    expect(events(cancelled)).toEqual(['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_COMPLETED']);
    expect(events(lost)).toEqual(['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_FAILED']);
  });

  it("incoming payments: INCOMING_PAYMENT.COMPLETED for a pull, PENDING (the platform's approval) then COMPLETED for a UMA receipt, with the credited account's BALANCE_UPDATED", async () => {
    const source = await externalAccount(t, customer.id, 'USD_ACCOUNT', '600');
    const pull = await t.call('POST', '/transfer-in', {
      body: { source: { accountId: source }, destination: { accountId: customer.usd }, amount: 4_000 },
    });
    const customerRec = (await t.call('GET', `/customers/${customer.id}`)).body;
    const uma = await t.call('POST', '/sandbox/uma/receive', {
      body: {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        receiverUmaAddress: customerRec.umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 2_000,
      },
    });
    await delivered(t);
    expect(events(pull.body.id)).toEqual(['INCOMING_PAYMENT.COMPLETED']);
    expect(events(uma.body.id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
    const amounts = hooks.deliveries
      .filter((d) => d.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && d.body.data.id === customer.usd)
      .map((d) => d.body.data.balance.amount);
    const now = (await accountBalances(t, customer.usd)).balance;
    expect(amounts).toContain(now);
    expect(amounts).toContain(now - 2_000);
  });
});

describe('GET /transactions', () => {
  it('filters by type, status, account, sender, receiver, reference, customer and dates; sorts; pages', async () => {
    const mine = await newCustomer(t, 'Filter Person');
    await addFunds(mine.usd, 100_000);
    const ok = await externalAccount(t, mine.id, 'USD_ACCOUNT', '700');
    const bad = await externalAccount(t, mine.id, 'USD_ACCOUNT', '004');
    const ids = [];
    for (const [dest, amount] of [
      [ok, 100],
      [bad, 200],
      [ok, 300],
    ] as const)
      ids.push((await out(mine.usd, dest, amount)).body.id);
    const pulled = (
      await t.call('POST', '/transfer-in', {
        body: { source: { accountId: ok }, destination: { accountId: mine.usd }, amount: 50 },
      })
    ).body;
    const list = async (query: string) => (await t.call('GET', `/transactions?${query}`)).body;

    expect((await list(`customerId=${mine.id}`)).data.map((x: any) => x.id)).toEqual([
      pulled.id,
      ids[2],
      ids[1],
      ids[0],
    ]);
    expect((await list(`customerId=${mine.id}&sortOrder=asc`)).data.map((x: any) => x.id)).toEqual([...ids, pulled.id]);
    expect((await list(`accountIdentifier=${mine.usd}&type=INCOMING`)).data.map((x: any) => x.id)).toEqual([pulled.id]);
    expect((await list(`senderAccountIdentifier=${mine.usd}&status=FAILED`)).data.map((x: any) => x.id)).toEqual([
      ids[1],
    ]);
    expect((await list(`receiverAccountIdentifier=${ok}&sortOrder=asc`)).data.map((x: any) => x.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    const reference = (await t.call('GET', `/transactions/${ids[2]}`)).body.reconciliationInstructions.reference;
    expect((await list(`reference=${reference}`)).data.map((x: any) => x.id)).toEqual([ids[2]]);
    const future = new Date(t.emu.testing.now() + 60_000).toISOString();
    expect((await list(`customerId=${mine.id}&startDate=${future}`)).data).toEqual([]);
    expect((await list(`customerId=${mine.id}&endDate=${future}`)).totalCount).toBe(4);

    const page1 = await list(`customerId=${mine.id}&limit=3&sortOrder=asc`);
    expect(page1).toMatchObject({ hasMore: true, totalCount: 4 });
    const page2 = await list(`customerId=${mine.id}&limit=3&sortOrder=asc&cursor=${page1.nextCursor}`);
    expect([...page1.data, ...page2.data].map((x: any) => x.id)).toEqual([...ids, pulled.id]);
    expect(page2.hasMore).toBe(false);
  });

  it("the platform's own payment names the platform (GET /config's id) as its customer, and that id filters the list", async () => {
    const platform = (await t.call('GET', '/config')).body.id as string;
    expect(platform).toMatch(/^PlatformConfig:[0-9a-f-]{36}$/);
    const bank = await externalAccount(t, undefined, 'USD_ACCOUNT');
    const paid = await out(platformUsd, bank, 700);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ customerId: platform, platformCustomerId: platform });
    expect((await t.call('GET', `/transactions/${paid.body.id}`)).body.customerId).toBe(platform);
    const listed = (await t.call('GET', `/transactions?customerId=${platform}&limit=100`)).body.data as any[];
    expect(listed.map((x) => x.id)).toContain(paid.body.id);
    expect(listed.every((x) => x.customerId === platform)).toBe(true);
    const theirs = (await t.call('GET', `/transactions?customerId=${customer.id}&limit=100`)).body.data as any[];
    expect(theirs.map((x) => x.id)).not.toContain(paid.body.id);
  });

  it('POST /transactions/{id}/confirm records the receipt delivery time (now, or the one given); a repeat updates it', async () => {
    const id = (await t.call('GET', '/transactions?limit=1')).body.data[0].id;
    const first = await t.call('POST', `/transactions/${id}/confirm`);
    expect(first.status).toBe(200);
    expect(Date.parse(first.body.receiptDeliveryConfirmedAt)).toBeLessThanOrEqual(t.emu.testing.now());
    const given = '2026-01-02T03:04:05.000Z';
    expect(
      (await t.call('POST', `/transactions/${id}/confirm`, { body: { receiptDeliveryConfirmedAt: given } })).body
        .receiptDeliveryConfirmedAt,
    ).toBe(given);
    expect((await t.call('GET', `/transactions/${id}`)).body.receiptDeliveryConfirmedAt).toBe(given);
    expect(
      errorShape(await t.call('POST', `/transactions/${id}/confirm`, { body: { receiptDeliveryConfirmedAt: 'soon' } }))
        .details.errors[0].field,
    ).toBe('receiptDeliveryConfirmedAt');
    expect(errorShape(await t.call('POST', `/transactions/Transaction:${randomUUID()}/confirm`))).toMatchObject({
      status: 404,
      code: 'TRANSACTION_NOT_FOUND',
    });
  });

  it('400 names every bad filter; 404 TRANSACTION_NOT_FOUND for an unknown id', async () => {
    const bad = await t.call('GET', '/transactions?status=DONE&type=CARD&startDate=yesterday&sortOrder=up&limit=500');
    expect(errorShape(bad).details.errors.map((e: any) => e.field)).toEqual([
      'status',
      'type',
      'startDate',
      'limit',
      'sortOrder',
    ]);
    expect(errorShape(await t.call('GET', `/transactions/Transaction:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'TRANSACTION_NOT_FOUND',
    });
  });
});

describe('balances reconcile after every scenario', () => {
  it('each internal account = funds + completed credits − money that left (completed, or lost with a failed refund); holds only in totalBalance', async () => {
    // More scenarios on the platform account, some still on their way when we count.
    for (const suffix of ['000', '002', '003', '005', '006', '007', '104']) {
      const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', suffix);
      const q = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, destination, 7_000) });
      await t.call('POST', `/quotes/${q.body.id}/execute`);
    }
    const slowDestination = await externalAccount(t, customer.id, 'USD_ACCOUNT', '005');
    await out(customer.usd, slowDestination, 900); // still PENDING: held
    const q = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, customer.eur, 10_030) });
    await t.call('POST', `/quotes/${q.body.id}/execute`);

    const all: any[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = (await t.call('GET', `/transactions?limit=100&sortOrder=asc${cursor ? `&cursor=${cursor}` : ''}`))
        .body;
      all.push(...page.data);
      cursor = page.nextCursor;
    }
    const accounts = (await t.call('GET', '/internal-accounts')).body.data as any[];
    let checked = 0;
    for (const account of accounts) {
      let total = funded.get(account.id) ?? 0;
      let held = 0;
      for (const x of all) {
        if (x.destination?.accountId === account.id && x.status === 'COMPLETED') total += x.receivedAmount.amount;
        if (x.source?.accountId === account.id && x.type === 'OUTGOING') {
          const left = x.status === 'COMPLETED' || (x.status === 'FAILED' && x.refund?.status === 'FAILED');
          if (left) total -= x.sentAmount.amount;
          if (x.status === 'PENDING' || x.status === 'PROCESSING') held += x.sentAmount.amount;
        }
      }
      expect({ id: account.id, balance: account.balance.amount, totalBalance: account.totalBalance.amount }).toEqual({
        id: account.id,
        balance: total - held,
        totalBalance: total,
      });
      expect(account.balance.amount).toBeGreaterThanOrEqual(0);
      if (total !== 0) checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});

describe("an agent sees its own customer's money only", () => {
  it("another customer's transaction is 404 to it, and lists hold only its own", async () => {
    const mine = await newCustomer(t, 'Agent Owner');
    await addFunds(mine.usd, 10_000);
    const theirs = (await t.call('GET', '/transactions?limit=1')).body.data[0];
    expect(theirs.customerId).not.toBe(mine.id);
    const destination = await externalAccount(t, mine.id, 'USD_ACCOUNT', '800');
    const own = (await out(mine.usd, destination, 100)).body;
    const policy = {
      permissions: [
        'VIEW_TRANSACTIONS',
        'CREATE_QUOTES',
        'EXECUTE_QUOTES',
        'CREATE_TRANSFERS',
        'MANAGE_EXTERNAL_ACCOUNTS',
      ],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null },
    };
    const asAgent = { auth: (await connectAgent(t, mine.id, policy, 'Money bot')).bearer };
    expect((await t.call('GET', `/transactions/${own.id}`, asAgent)).status).toBe(200);
    expect(errorShape(await t.call('GET', `/transactions/${theirs.id}`, asAgent))).toMatchObject({ status: 404 });
    const list = await t.call('GET', '/transactions?limit=100', asAgent);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.map((x: any) => x.customerId)).toEqual(list.body.data.map(() => mine.id));
    // The platform's money is not the agent's either.
    expect((await t.call('GET', '/platform/internal-accounts', asAgent)).body.data).toEqual([]);
    expect(errorShape(await t.call('GET', `/internal-accounts/${platformUsd}`, asAgent))).toMatchObject({
      status: 404,
    });
    // Unknown to the agent, as an unknown account is to anyone: POST /quotes declares 400 for it, no 404.
    expect(
      errorShape(await t.call('POST', '/quotes', { ...asAgent, body: accountQuote(platformUsd, destination, 1_000) })),
    ).toMatchObject({ status: 400, details: { errors: [{ field: 'source.accountId' }] } });
    expect(
      errorShape(
        await t.call('POST', '/transfer-out', {
          ...asAgent,
          body: { source: { accountId: platformUsd }, destination: { accountId: destination }, amount: 1 },
        }),
      ),
    ).toMatchObject({ status: 404 });
    const platformAccountIds = (await t.call('GET', '/platform/external-accounts')).body.data.map((a: any) => a.id);
    expect(platformAccountIds.length).toBeGreaterThan(0);
    expect(
      (await t.call('GET', '/customers/external-accounts?limit=100', asAgent)).body.data.map((a: any) => a.customerId),
    ).not.toContain(undefined);
    expect(
      errorShape(await t.call('GET', `/customers/external-accounts/${platformAccountIds[0]}`, asAgent)),
    ).toMatchObject({ status: 404 });
    // A quote from the platform to the customer names the customer, but spends the platform's money.
    const gift = await t.call('POST', '/quotes', { body: accountQuote(platformUsd, mine.usd, 1_000) });
    expect(gift.body.status).toBe('PENDING');
    expect(errorShape(await t.call('POST', `/quotes/${gift.body.id}/execute`, asAgent))).toMatchObject({
      status: 404,
      code: 'QUOTE_NOT_FOUND',
    });
    // An agent's new account is its customer's.
    const added = await t.call('POST', '/customers/external-accounts', {
      ...asAgent,
      body: {
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '99887766',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' },
        },
      },
    });
    expect(added.body.customerId).toBe(mine.id);
    // Its own money it may move.
    expect(
      (
        await t.call('POST', '/transfer-out', {
          ...asAgent,
          body: { source: { accountId: mine.usd }, destination: { accountId: destination }, amount: 1 },
        })
      ).status,
    ).toBe(201);
  });
});
