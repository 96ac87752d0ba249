/**
 * The agent's money routes over HTTP (`/agents/me/…`, Bearer only) and its policy: permissions
 * (403 FORBIDDEN), spending limits (403 VELOCITY_LIMIT_EXCEEDED, reset by the emulator clock),
 * allowed accounts, and approval (a PENDING_APPROVAL AgentAction, then the platform's approve or reject).
 * The spending routes answer the AgentAction, with the description's status (transfer 201, execute 200).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalances,
  accountQuote,
  ALL_AGENT_PERMISSIONS,
  autoPolicy,
  externalAccount,
  fundedAgent,
  newCustomer,
  payout,
  type FundedAgent,
} from '../money/support.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, testEmulator, type TestEmulator } from '../support.js';

const DAY = 24 * 3600 * 1000;

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
  // Start at 00:30 UTC so "today" has room for the tests that stay within it.
  const now = t.emu.testing.now();
  t.emu.testing.advanceClock(DAY - (now % DAY) + 30 * 60 * 1000);
});
afterAll(() => t.close());

/** A customer with 10,000.00 USD, a USD bank account, and a connected agent under policy. */
const setup = (policy: Record<string, unknown> = {}): Promise<FundedAgent> =>
  fundedAgent(t, 1_000_000, 'Payer bot', () => ({ ...autoPolicy(100_000), ...policy }));

const as = (s: FundedAgent, method: string, path: string, body?: object, headers?: Record<string, string>) =>
  t.call(method, path, { auth: s.bearer, ...(body ? { body } : {}), ...(headers ? { headers } : {}) });

describe('every /agents/me money route runs the money area for the agent', () => {
  let s: FundedAgent;
  beforeAll(async () => {
    s = await setup();
  });

  it('transfer-out: 201 APPROVED AgentAction with its transaction, which names the agent; usage counts it', async () => {
    const sent = await as(s, 'POST', '/agents/me/transfer-out', payout(s, 2_500));
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({
      id: expect.stringMatching(/^AgentAction:/),
      type: 'TRANSFER_OUT',
      status: 'APPROVED',
      agentId: s.agentId,
      customerId: s.customerId,
      transferDetails: { amount: 2_500, currency: 'USD', sourceAccountId: s.usd, destinationAccountId: s.bank },
      transaction: { id: expect.stringMatching(/^Transaction:/), type: 'OUTGOING', agentId: s.agentId },
    });
    const txId = sent.body.transaction.id;
    expect((await accountBalances(t, s.usd)).balance).toBe(997_500);
    const mine = await as(s, 'GET', `/agents/me/transactions/${txId}`);
    expect(mine.body).toMatchObject({ id: txId, agentId: s.agentId });
    expect((await as(s, 'GET', `/agents/me/actions/${sent.body.id}`)).body).toEqual(sent.body);
    expect((await as(s, 'GET', '/agents/me')).body.usage).toMatchObject({
      dailyTransactionCount: 1,
      dailySpend: 2_500,
      monthlySpend: 2_500,
    });
    const list = await as(s, 'GET', '/agents/me/transactions');
    expect(list.body).toMatchObject({ hasMore: false, totalCount: 1, data: [{ id: txId }] });
  });

  it('an Idempotency-Key repeat answers the same action and transaction; nothing moves twice', async () => {
    const headers = { 'Idempotency-Key': `agent-${s.agentId}` };
    const first = await t.call('POST', '/agents/me/transfer-out', { auth: s.bearer, headers, body: payout(s, 100) });
    const before = await accountBalances(t, s.usd);
    const again = await t.call('POST', '/agents/me/transfer-out', { auth: s.bearer, headers, body: payout(s, 100) });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.transaction.id).toBe(first.body.transaction.id);
    expect(again.body.transaction.agentId).toBe(s.agentId);
    expect(await accountBalances(t, s.usd)).toEqual(before);
  });

  it("transfer-in: 201 APPROVED AgentAction with an INCOMING transaction into the agent customer's account", async () => {
    const pulled = await as(s, 'POST', '/agents/me/transfer-in', {
      source: { accountId: s.bank },
      destination: { accountId: s.usd },
      amount: 700,
    });
    expect(pulled.status, pulled.text).toBe(201);
    expect(pulled.body).toMatchObject({
      type: 'TRANSFER_IN',
      status: 'APPROVED',
      transferDetails: { amount: 700, sourceAccountId: s.bank, destinationAccountId: s.usd },
      transaction: { type: 'INCOMING', direction: 'DEBIT', agentId: s.agentId },
    });
  });

  it('quotes: create 201, get 200; execute from the wallet is the signed two-step flow, then 200 APPROVED AgentAction', async () => {
    const quote = await as(s, 'POST', '/agents/me/quotes', accountQuote(s.usd, s.bank, 1_000));
    expect(quote.status, quote.text).toBe(201);
    expect((await as(s, 'GET', `/agents/me/quotes/${quote.body.id}`)).body).toMatchObject({
      id: quote.body.id,
      status: 'PENDING',
    });
    const path = `/agents/me/quotes/${quote.body.id}/execute`;
    const execute = await as(s, 'POST', path);
    expect(execute.status, execute.text).toBe(202);
    expect(execute.body.payloadToSign).toEqual(expect.any(String));
    const key = generateKeyPair();
    t.emu.testing.createSession(key.publicKey, { accountId: s.usd });
    const signed = await as(s, 'POST', path, undefined, signedHeaders(execute.body, key.privateKey));
    expect(signed.status, signed.text).toBe(200);
    expect(signed.body).toMatchObject({
      id: expect.stringMatching(/^AgentAction:/),
      type: 'EXECUTE_QUOTE',
      status: 'APPROVED',
      quote: { id: quote.body.id },
      transaction: { quoteId: quote.body.id, agentId: s.agentId },
    });
  });

  it('external accounts: create 201, list, get 200, delete 204, then 404', async () => {
    const made = await as(s, 'POST', '/agents/me/external-accounts', {
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '55501234',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.customerId).toBe(s.customerId);
    const list = await as(s, 'GET', '/agents/me/external-accounts');
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([s.bank, made.body.id]);
    expect((await as(s, 'GET', `/agents/me/external-accounts/${made.body.id}`)).status).toBe(200);
    expect((await as(s, 'DELETE', `/agents/me/external-accounts/${made.body.id}`)).status).toBe(204);
    expect(errorShape(await as(s, 'GET', `/agents/me/external-accounts/${made.body.id}`))).toMatchObject({
      status: 404,
    });
  });

  it("another customer's accounts are 404; a bad body is the area's 400 listing every field", async () => {
    const other = await newCustomer(t, 'Other Person');
    expect(
      errorShape(
        await as(s, 'POST', '/agents/me/transfer-out', {
          source: { accountId: other.usd },
          destination: { accountId: s.bank },
          amount: 10,
        }),
      ),
    ).toMatchObject({ status: 404 });
    const bad = await as(s, 'POST', '/agents/me/transfer-out', { source: {}, amount: -1 });
    expect(errorShape(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['destination', 'source.accountId']);
  });

  it.each([
    ['GET', '/agents/me/transactions'],
    ['POST', '/agents/me/quotes'],
    ['POST', '/agents/me/transfer-out'],
    ['GET', '/agents/me/external-accounts'],
    ['GET', '/agents/me/actions'],
  ])('%s %s with HTTP Basic is 401 (AgentAuth only)', async (method, path) => {
    expect(errorShape(await t.call(method, path, method === 'POST' ? { body: {} } : {}))).toMatchObject({
      status: 401,
    });
  });
});

describe('permissions: each route needs its own (403 FORBIDDEN)', () => {
  it.each([
    ['VIEW_TRANSACTIONS', 'GET', '/agents/me/transactions', undefined],
    ['CREATE_QUOTES', 'POST', '/agents/me/quotes', 'quote'],
    ['EXECUTE_QUOTES', 'POST', '/agents/me/quotes/{quote}/execute', undefined],
    ['CREATE_TRANSFERS', 'POST', '/agents/me/transfer-out', 'payout'],
    ['CREATE_TRANSFERS', 'POST', '/agents/me/transfer-in', 'pull'],
    ['MANAGE_EXTERNAL_ACCOUNTS', 'POST', '/agents/me/external-accounts', 'account'],
  ] as const)('without %s: %s %s', async (permission, method, path, bodyKind) => {
    const s = await setup({ permissions: ALL_AGENT_PERMISSIONS.filter((p) => p !== permission) });
    const quote = await t.call('POST', '/quotes', { body: accountQuote(s.usd, s.bank, 1_000) });
    const bodies: Record<string, object> = {
      quote: accountQuote(s.usd, s.bank, 1_000),
      payout: payout(s, 100),
      pull: { source: { accountId: s.bank }, destination: { accountId: s.usd }, amount: 100 },
      account: {
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '55509999', routingNumber: '021000021' },
      },
    };
    const answer = await as(s, method, path.replace('{quote}', quote.body.id), bodyKind ? bodies[bodyKind] : undefined);
    expect(errorShape(answer)).toMatchObject({ status: 403, code: 'FORBIDDEN', details: { permission } });
    expect(await accountBalances(t, s.usd)).toEqual({ balance: 1_000_000, totalBalance: 1_000_000 });
  });
});

describe('spending limits (403 VELOCITY_LIMIT_EXCEEDED, nothing moves)', () => {
  const limits = (extra: object) => ({ spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, ...extra } });

  it.each([
    ['perTransactionLimit', {}, [5_001]],
    ['dailyLimit', { dailyLimit: 6_000 }, [4_000, 2_001]],
    ['monthlyLimit', { monthlyLimit: 6_000 }, [4_000, 2_001]],
    ['dailyTransactionLimit', { dailyTransactionLimit: 2 }, [10, 10, 10]],
  ] as Array<[string, object, number[]]>)('%s', async (limit, extra, amounts) => {
    const s = await setup(limits(extra));
    for (const amount of amounts.slice(0, -1))
      expect((await as(s, 'POST', '/agents/me/transfer-out', payout(s, amount))).status).toBe(201);
    const before = await accountBalances(t, s.usd);
    const refused = await as(s, 'POST', '/agents/me/transfer-out', payout(s, amounts.at(-1)!));
    expect(errorShape(refused)).toMatchObject({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', details: { limit } });
    expect(await accountBalances(t, s.usd)).toEqual(before);
  });

  it("a quote executed on creation counts against the limit in the limit's currency (EUR sent, USD limit)", async () => {
    const s = await setup(limits({}));
    const eurBank = await externalAccount(t, s.customerId, 'EUR_ACCOUNT');
    // 5,000 EUR minor units pulled is more than 5,000 USD minor units.
    const pull = await as(s, 'POST', '/agents/me/quotes', {
      ...accountQuote(eurBank, s.usd, 5_000),
      immediatelyExecute: true,
    });
    expect(errorShape(pull)).toMatchObject({
      status: 403,
      code: 'VELOCITY_LIMIT_EXCEEDED',
      details: { limit: 'perTransactionLimit', currency: 'USD' },
    });
    const small = await as(s, 'POST', '/agents/me/quotes', {
      ...accountQuote(eurBank, s.usd, 1_000),
      immediatelyExecute: true,
    });
    expect(small.status, small.text).toBe(201);
    expect((await as(s, 'GET', `/agents/me/transactions/${small.body.transactionId}`)).body.agentId).toBe(s.agentId);
  });

  it('the daily limit starts again the next UTC day (emulator clock)', async () => {
    const s = await setup(limits({ dailyLimit: 5_000 }));
    expect((await as(s, 'POST', '/agents/me/transfer-out', payout(s, 5_000))).status).toBe(201);
    expect(errorShape(await as(s, 'POST', '/agents/me/transfer-out', payout(s, 1)))).toMatchObject({
      status: 403,
      code: 'VELOCITY_LIMIT_EXCEEDED',
    });
    t.emu.testing.advanceClock(DAY);
    expect((await as(s, 'GET', '/agents/me')).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    expect((await as(s, 'POST', '/agents/me/transfer-out', payout(s, 1))).status).toBe(201);
  });

  it('allowedAccountIds: an account outside the list is 403 FORBIDDEN naming it', async () => {
    const s = await setup();
    const other = await externalAccount(t, s.customerId, 'USD_ACCOUNT');
    const made = await t.call('POST', '/agents', {
      body: {
        name: 'Narrow',
        customerId: s.customerId,
        policy: {
          permissions: ALL_AGENT_PERMISSIONS,
          defaultExecutionMode: 'AUTO',
          spendingLimits: { currency: 'USD', perTransactionLimit: 100_000 },
          accountRestrictions: { allowedAccountIds: [s.usd, s.bank] },
        },
      },
    });
    const bearer = `Bearer ${(await t.call('POST', `/agents/device-codes/${made.body.deviceCode.code}/redeem`, { auth: false })).body.accessToken}`;
    const narrow = { ...s, bearer };
    expect((await as(narrow, 'POST', '/agents/me/transfer-out', payout(s, 10))).status).toBe(201);
    const refused = await as(narrow, 'POST', '/agents/me/transfer-out', {
      source: { accountId: s.usd },
      destination: { accountId: other },
      amount: 10,
    });
    expect(errorShape(refused)).toMatchObject({ status: 403, code: 'FORBIDDEN', details: { accountIds: [other] } });
  });

  it('a policy with bad restrictions or thresholds is 400 listing every bad field', async () => {
    const c = await newCustomer(t);
    const bad = await t.call('POST', '/agents', {
      body: {
        name: 'Bad',
        customerId: c.id,
        policy: {
          permissions: ALL_AGENT_PERMISSIONS,
          defaultExecutionMode: 'AUTO',
          spendingLimits: { currency: 'USD', perTransactionLimit: 1 },
          accountRestrictions: { allowedAccountIds: ['nope'], accountRules: [{ executionMode: 'SOMETIMES' }] },
          approvalThresholds: { amount: 5 },
        },
      },
    });
    expect(errorShape(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'policy.accountRestrictions.accountRules[0].accountId',
      'policy.accountRestrictions.accountRules[0].executionMode',
    ]);
  });
});

describe("the money areas' own paths hold an agent to the same policy", () => {
  it.each([
    [
      'POST /transfer-out over the per-transaction limit',
      { spendingLimits: { currency: 'USD', perTransactionLimit: 500 } },
      'POST',
      '/transfer-out',
      501,
      403,
      'VELOCITY_LIMIT_EXCEEDED',
    ],
    [
      'POST /transfer-out without CREATE_TRANSFERS',
      { permissions: ['VIEW_TRANSACTIONS'] },
      'POST',
      '/transfer-out',
      10,
      403,
      'FORBIDDEN',
    ],
    [
      'GET /transactions without VIEW_TRANSACTIONS',
      { permissions: ['CREATE_TRANSFERS'] },
      'GET',
      '/transactions',
      0,
      403,
      'FORBIDDEN',
    ],
    [
      'POST /customers/external-accounts without MANAGE_EXTERNAL_ACCOUNTS',
      { permissions: ['VIEW_TRANSACTIONS'] },
      'POST',
      '/customers/external-accounts',
      0,
      403,
      'FORBIDDEN',
    ],
    [
      'POST /transfer-out needing approval: 403 naming the pending action (the operation declares no 202)',
      { defaultExecutionMode: 'APPROVAL_REQUIRED' },
      'POST',
      '/transfer-out',
      10,
      403,
      'FORBIDDEN',
    ],
    ['POST /transfer-out within the policy', {}, 'POST', '/transfer-out', 10, 201, undefined],
  ] as Array<[string, Record<string, unknown>, string, string, number, number, string | undefined]>)(
    '%s',
    async (_name, policy, method, path, amount, status, code) => {
      const s = await setup(policy);
      const body =
        path === '/transfer-out'
          ? payout(s, amount)
          : path === '/transactions'
            ? undefined
            : {
                currency: 'USD',
                accountInfo: {
                  accountType: 'USD_ACCOUNT',
                  accountNumber: '55507777',
                  routingNumber: '021000021',
                  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
                },
              };
      const answer = await as(s, method, path, body);
      expect(answer.status, answer.text).toBe(status);
      if (code) expect(errorShape(answer).code).toBe(code);
      if (policy.defaultExecutionMode === 'APPROVAL_REQUIRED') {
        const held = await as(s, 'GET', `/agents/me/actions/${answer.body.details.actionId}`);
        expect(held.body).toMatchObject({ type: 'TRANSFER_OUT', status: 'PENDING_APPROVAL' });
      }
      if (status === 201) expect(answer.body.agentId).toBe(s.agentId); // the area's path: its own Transaction
      // The platform (Basic) is not an agent: the same call is not judged by any agent's policy.
      if (path === '/transfer-out')
        expect((await t.call('POST', '/transfer-out', { body: payout(s, amount) })).status).toBe(201);
    },
  );
});
