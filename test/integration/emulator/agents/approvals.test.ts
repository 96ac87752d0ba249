/**
 * Agent actions over HTTP: at /agents/me a spending operation answers its AgentAction with the
 * description's status (transfer 201, execute 200). One the policy sends for approval is
 * PENDING_APPROVAL (and `AGENT_ACTION.PENDING_APPROVAL`), moves nothing, and waits for the platform:
 * approve runs it (under the limits of that moment), reject drops it. One the policy lets run is
 * APPROVED with its transaction.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalances, accountQuote, autoPolicy, fundedAgent, payout, type FundedAgent } from '../money/support.js';
import { basicAuth, errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const setup = (policy: (ids: { usd: string; bank: string }) => Record<string, unknown>): Promise<FundedAgent> =>
  fundedAgent(t, 100_000, 'Careful bot', (ids) => ({ ...autoPolicy(50_000), ...policy(ids) }));

const as = (s: FundedAgent, method: string, path: string, body?: object, headers?: Record<string, string>) =>
  t.call(method, path, { auth: s.bearer, ...(body ? { body } : {}), ...(headers ? { headers } : {}) });
const approvalRequired = () => ({ defaultExecutionMode: 'APPROVAL_REQUIRED' });

describe('which operations wait for approval', () => {
  it.each([
    ['defaultExecutionMode APPROVAL_REQUIRED', approvalRequired, 100, 'PENDING_APPROVAL'],
    [
      'under the approval threshold',
      () => ({ approvalThresholds: { currency: 'USD', amount: 1_000 } }),
      1_000,
      'APPROVED',
    ],
    [
      'over the approval threshold (AUTO)',
      () => ({ approvalThresholds: { currency: 'USD', amount: 1_000 } }),
      1_001,
      'PENDING_APPROVAL',
    ],
    [
      'an account rule APPROVAL_REQUIRED',
      (ids: { bank: string }) => ({
        accountRestrictions: { accountRules: [{ accountId: ids.bank, executionMode: 'APPROVAL_REQUIRED' }] },
      }),
      100,
      'PENDING_APPROVAL',
    ],
    [
      'an account rule AUTO over a default APPROVAL_REQUIRED',
      (ids: { bank: string }) => ({
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        accountRestrictions: { accountRules: [{ accountId: ids.bank, executionMode: 'AUTO' }] },
      }),
      100,
      'APPROVED',
    ],
  ] as Array<[string, (ids: { usd: string; bank: string }) => Record<string, unknown>, number, string]>)(
    '%s: 201 AgentAction %s',
    async (_name, policy, amount, status) => {
      const s = await setup(policy);
      const answer = await as(s, 'POST', '/agents/me/transfer-out', payout(s, amount));
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body).toMatchObject({
        id: expect.stringMatching(/^AgentAction:/),
        status,
        type: 'TRANSFER_OUT',
        agentId: s.agentId,
        customerId: s.customerId,
        transferDetails: { amount, currency: 'USD', sourceAccountId: s.usd, destinationAccountId: s.bank },
      });
      if (status === 'PENDING_APPROVAL') {
        expect(answer.body.transaction).toBeUndefined();
        expect(await accountBalances(t, s.usd)).toEqual({ balance: 100_000, totalBalance: 100_000 });
      } else {
        expect(answer.body.transaction).toMatchObject({ type: 'OUTGOING', agentId: s.agentId });
        expect((await accountBalances(t, s.usd)).totalBalance).toBe(100_000 - amount);
      }
    },
  );

  it("an account rule's own perTransactionLimit is 403 VELOCITY_LIMIT_EXCEEDED", async () => {
    const s = await setup((ids) => ({
      accountRestrictions: { accountRules: [{ accountId: ids.bank, perTransactionLimit: 500 }] },
    }));
    expect(errorShape(await as(s, 'POST', '/agents/me/transfer-out', payout(s, 501)))).toMatchObject({
      status: 403,
      code: 'VELOCITY_LIMIT_EXCEEDED',
    });
    expect((await as(s, 'POST', '/agents/me/transfer-out', payout(s, 500))).status).toBe(201);
  });
});

describe('approve and reject', () => {
  it('pending → webhook event, listed for the platform and the agent → approve runs it once', async () => {
    const s = await setup(approvalRequired);
    const pending = await as(s, 'POST', '/agents/me/transfer-out', payout(s, 4_000), {
      'Idempotency-Key': `k-${s.agentId}`,
    });
    expect(pending.status).toBe(201);
    expect(pending.body.status).toBe('PENDING_APPROVAL');
    const id = pending.body.id as string;
    // The same key again: the same action, not a second one.
    expect(
      (await as(s, 'POST', '/agents/me/transfer-out', payout(s, 4_000), { 'Idempotency-Key': `k-${s.agentId}` })).body
        .id,
    ).toBe(id);

    const events = await request(
      `${new URL(t.emu.baseUrl).origin}/_emulator/webhooks/events?types=AGENT_ACTION.PENDING_APPROVAL`,
      { headers: { authorization: basicAuth(t.emu) } },
    );
    expect(
      ((await events.body.json()) as { data: Array<{ data: { id: string } }> }).data.filter(
        (e: { data: { id: string } }) => e.data.id === id,
      ),
    ).toHaveLength(1);
    const approvals = await t.call('GET', `/agents/approvals?agentId=${s.agentId}`);
    expect(approvals.body).toMatchObject({ totalCount: 1, data: [{ id, status: 'PENDING_APPROVAL' }] });
    expect((await as(s, 'GET', `/agents/me/actions/${id}`)).body).toMatchObject({ id, status: 'PENDING_APPROVAL' });
    expect((await as(s, 'GET', '/agents/me/actions')).body.data.map((a: { id: string }) => a.id)).toEqual([id]);

    const approved = await t.call('POST', `/agents/${s.agentId}/actions/${id}/approve`);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      id,
      status: 'APPROVED',
      transaction: { type: 'OUTGOING', agentId: s.agentId, sentAmount: { amount: 4_000 } },
    });
    expect((await accountBalances(t, s.usd)).balance).toBe(96_000);
    expect((await as(s, 'GET', '/agents/me')).body.usage).toMatchObject({
      dailyTransactionCount: 1,
      dailySpend: 4_000,
    });
    expect((await t.call('GET', `/agents/approvals?agentId=${s.agentId}`)).body.data).toEqual([]);

    const again = await t.call('POST', `/agents/${s.agentId}/actions/${id}/approve`);
    expect(errorShape(again)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await accountBalances(t, s.usd)).balance).toBe(96_000);
  });

  it('reject: REJECTED with the reason, nothing moves; then approve is 409', async () => {
    const s = await setup(approvalRequired);
    const pending = await as(s, 'POST', '/agents/me/transfer-out', payout(s, 4_000));
    const rejected = await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/reject`, {
      body: { reason: 'Not this month' },
    });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not this month' });
    expect(rejected.body.transaction).toBeUndefined();
    expect(await accountBalances(t, s.usd)).toEqual({ balance: 100_000, totalBalance: 100_000 });
    expect(errorShape(await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/approve`))).toMatchObject({
      status: 409,
    });
  });

  it('a quote execution waits too; approved after the quote expired (clock +6 min) it is FAILED, nothing moves', async () => {
    const s = await setup(approvalRequired);
    const quote = await as(s, 'POST', '/agents/me/quotes', accountQuote(s.usd, s.bank, 2_000));
    const pending = await as(s, 'POST', `/agents/me/quotes/${quote.body.id}/execute`);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({
      type: 'EXECUTE_QUOTE',
      status: 'PENDING_APPROVAL',
      quote: { id: quote.body.id },
    });
    // Executing again while it waits answers the same action.
    expect((await as(s, 'POST', `/agents/me/quotes/${quote.body.id}/execute`)).body.id).toBe(pending.body.id);
    t.emu.testing.advanceClock(6 * 60 * 1000);
    const late = await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/approve`);
    expect(late.body).toMatchObject({ status: 'FAILED', rejectionReason: expect.stringMatching(/expired/) });
    expect(await accountBalances(t, s.usd)).toEqual({ balance: 100_000, totalBalance: 100_000 });
  });

  it("a quote execution approved in time runs: the transaction is the agent's", async () => {
    const s = await setup(approvalRequired);
    const quote = await as(s, 'POST', '/agents/me/quotes', accountQuote(s.usd, s.bank, 2_000));
    const pending = await as(s, 'POST', `/agents/me/quotes/${quote.body.id}/execute`);
    const approved = await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/approve`);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      transaction: { agentId: s.agentId, quoteId: quote.body.id },
    });
    expect((await accountBalances(t, s.usd)).balance).toBe(98_000);
  });

  it('a quote created with immediatelyExecute that must wait: 201 Quote (PENDING, unexecuted), its execution a pending action', async () => {
    const s = await setup(approvalRequired);
    // A pull from the bank account (a wallet source would be the signed execute instead).
    const made = await as(s, 'POST', '/agents/me/quotes', {
      ...accountQuote(s.bank, s.usd, 2_000),
      immediatelyExecute: true,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ id: expect.stringMatching(/^Quote:/), status: 'PENDING' });
    expect(await accountBalances(t, s.usd)).toEqual({ balance: 100_000, totalBalance: 100_000 });
    const [action] = (await as(s, 'GET', '/agents/me/actions')).body.data;
    expect(action).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'PENDING_APPROVAL', quote: { id: made.body.id } });
    const approved = await t.call('POST', `/agents/${s.agentId}/actions/${action.id}/approve`);
    expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { quoteId: made.body.id } });
    expect((await accountBalances(t, s.usd)).balance).toBe(100_000 + made.body.totalReceivingAmount);
  });

  it('limits are judged again at approval: spending since then makes it FAILED', async () => {
    const s = await setup(() => ({
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 5_000 },
      approvalThresholds: { currency: 'USD', amount: 3_000 },
    }));
    const pending = await as(s, 'POST', '/agents/me/transfer-out', payout(s, 4_000));
    expect(pending.body.status).toBe('PENDING_APPROVAL');
    expect((await as(s, 'POST', '/agents/me/transfer-out', payout(s, 2_000))).body.status).toBe('APPROVED');
    const approved = await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/approve`);
    expect(approved.body).toMatchObject({
      status: 'FAILED',
      rejectionReason: expect.stringMatching(/^VELOCITY_LIMIT_EXCEEDED/),
    });
    expect((await accountBalances(t, s.usd)).balance).toBe(98_000);
  });

  it("refusals: unknown action or agent 404, another agent's action 404, bad reason 400, the agent cannot approve (401)", async () => {
    const s = await setup(approvalRequired);
    const other = await setup(approvalRequired);
    const pending = await as(s, 'POST', '/agents/me/transfer-out', payout(s, 100));
    expect(
      errorShape(
        await t.call('POST', `/agents/${s.agentId}/actions/AgentAction:00000000-0000-4000-8000-000000000000/approve`),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      errorShape(await t.call('POST', `/agents/${other.agentId}/actions/${pending.body.id}/approve`)),
    ).toMatchObject({ status: 404 });
    expect(errorShape(await as(other, 'GET', `/agents/me/actions/${pending.body.id}`))).toMatchObject({ status: 404 });
    const bad = await t.call('POST', `/agents/${s.agentId}/actions/${pending.body.id}/reject`, {
      body: { reason: '' },
    });
    expect(errorShape(bad)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'reason' }] },
    });
    expect(errorShape(await as(s, 'POST', `/agents/${s.agentId}/actions/${pending.body.id}/approve`))).toMatchObject({
      status: 401,
    });
    expect(errorShape(await as(s, 'GET', '/agents/approvals'))).toMatchObject({ status: 401 });
    expect((await as(s, 'GET', `/agents/me/actions/${pending.body.id}`)).body.status).toBe('PENDING_APPROVAL');
  });

  it("the lists page, newest first; the agent's list filters by status and brings a limit into 1…100 (it declares no 400)", async () => {
    const s = await setup(approvalRequired);
    const first = (await as(s, 'POST', '/agents/me/transfer-out', payout(s, 100))).body.id;
    const second = (await as(s, 'POST', '/agents/me/transfer-out', payout(s, 200))).body.id;
    const page = await as(s, 'GET', '/agents/me/actions?limit=1');
    expect(page.body).toMatchObject({
      data: [{ id: second }],
      hasMore: true,
      totalCount: 2,
      nextCursor: expect.any(String),
    });
    expect((await as(s, 'GET', `/agents/me/actions?limit=1&cursor=${page.body.nextCursor}`)).body).toMatchObject({
      data: [{ id: first }],
      hasMore: false,
    });
    expect(
      (await t.call('GET', `/agents/approvals?agentId=${s.agentId}`)).body.data.map((a: { id: string }) => a.id),
    ).toEqual([second, first]);
    // The description bounds limit to 1…100: outside it is the schema check's 400 naming limit.
    for (const limit of [0, 5000]) {
      const outside = await as(s, 'GET', `/agents/me/actions?limit=${limit}`);
      expect(errorShape(outside)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(outside.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
    }
    const one = await as(s, 'GET', '/agents/me/actions?limit=1');
    expect(one.body.data.map((a: { id: string }) => a.id)).toEqual([second]);
    expect((await as(s, 'GET', '/agents/me/actions?limit=100')).body.data).toHaveLength(2);
    const pending = (await as(s, 'GET', '/agents/me/actions?status=PENDING_APPROVAL')).body.data;
    expect(pending.map((a: { id: string }) => a.id)).toEqual([second, first]);
    expect((await as(s, 'GET', '/agents/me/actions?status=APPROVED')).body.data).toEqual([]);
    expect(errorShape(await t.call('GET', '/agents/approvals?agentId=nope&limit=500'))).toMatchObject({ status: 400 });
  });
  it("the platform's list takes the description's creation-time window (inclusive) and sortOrder", async () => {
    const s = await setup(approvalRequired);
    const ids: string[] = [];
    const times: string[] = [];
    for (const amount of [100, 200, 300]) {
      const action = (await as(s, 'POST', '/agents/me/transfer-out', payout(s, amount))).body;
      ids.push(action.id);
      times.push(action.createdAt);
      t.emu.testing.advanceClock(60_000);
    }
    const listed = async (query: string) =>
      (await t.call('GET', `/agents/approvals?agentId=${s.agentId}${query}`)).body.data.map(
        (a: { id: string }) => a.id,
      );
    expect(await listed('')).toEqual([ids[2], ids[1], ids[0]]);
    expect(await listed('&sortOrder=asc')).toEqual(ids);
    expect(await listed(`&startDate=${times[1]}`)).toEqual([ids[2], ids[1]]);
    expect(await listed(`&endDate=${times[1]}`)).toEqual([ids[1], ids[0]]);
    expect(await listed(`&startDate=${times[1]}&endDate=${times[1]}&sortOrder=asc`)).toEqual([ids[1]]);
  });
});
