/**
 * The platform's changes to an agent over HTTP: pause (its operations are 403 until resumed),
 * a new policy (applies to the next operation), delete (its token stops, pending actions are
 * rejected). Basic only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoPolicy, fundedAgent, newCustomer, payout } from '../money/support.js';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';

const policy = (extra: object = {}) => ({ ...autoPolicy(10_000), ...extra });

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

async function setup(extra: object = {}) {
  const a = await fundedAgent(t, 100_000, 'Managed bot', () => policy(extra));
  const send = (amount: number) =>
    t.call('POST', '/agents/me/transfer-out', { auth: a.bearer, body: payout(a, amount) });
  return { agentId: a.agentId, bearer: a.bearer, send };
}

describe('PATCH /agents/{id}, PATCH /agents/{id}/policy, DELETE /agents/{id}', () => {
  it('pause: operations 403 FORBIDDEN, GET /agents/me shows it; resume: allowed again', async () => {
    const a = await setup();
    const paused = await t.call('PATCH', `/agents/${a.agentId}`, { body: { isPaused: true, name: 'Resting bot' } });
    expect(paused.body).toMatchObject({ id: a.agentId, isPaused: true, name: 'Resting bot' });
    expect(errorShape(await a.send(10))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: expect.stringMatching(/paused/),
    });
    expect((await t.call('GET', '/agents/me', { auth: a.bearer })).body.isPaused).toBe(true);
    await t.call('PATCH', `/agents/${a.agentId}`, { body: { isPaused: false } });
    expect((await a.send(10)).status).toBe(201);
  });

  it('a new policy applies to the next operation; a bad one is 400 listing every field and changes nothing', async () => {
    const a = await setup();
    expect((await a.send(5_000)).status).toBe(201);
    const changed = await t.call('PATCH', `/agents/${a.agentId}/policy`, {
      body: { spendingLimits: { perTransactionLimit: 1_000 } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.policy.spendingLimits).toEqual({ currency: 'USD', perTransactionLimit: 1_000 });
    expect(errorShape(await a.send(5_000))).toMatchObject({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED' });
    const bad = await t.call('PATCH', `/agents/${a.agentId}/policy`, {
      body: { permissions: ['FLY'], defaultExecutionMode: 'SOON', spendingLimits: { dailyLimit: -1 } },
    });
    expect(errorShape(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'permissions[0]',
      'defaultExecutionMode',
    ]);
    expect((await t.call('GET', `/agents/${a.agentId}`)).body.policy).toEqual(changed.body.policy);
  });

  // The description's AgentPolicyUpdateRequest: only the fields sent change, the rest keep their values.
  it.each([
    ['nothing', {}, {}],
    [
      'one spending limit (merged into the others)',
      { spendingLimits: { dailyLimit: 50_000 } },
      { spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 50_000 } },
    ],
    [
      'the execution mode',
      { defaultExecutionMode: 'APPROVAL_REQUIRED' },
      { defaultExecutionMode: 'APPROVAL_REQUIRED' },
    ],
    [
      'the permissions (a new list replaces the old)',
      { permissions: ['VIEW_TRANSACTIONS'] },
      { permissions: ['VIEW_TRANSACTIONS'] },
    ],
    [
      'the approval thresholds',
      { approvalThresholds: { currency: 'USD', amount: 2_000 } },
      { approvalThresholds: { currency: 'USD', amount: 2_000 } },
    ],
  ])('PATCH /agents/{id}/policy with %s: 200, the rest of the policy unchanged', async (_row, body, changes) => {
    const a = await setup();
    const before = (await t.call('GET', `/agents/${a.agentId}`)).body.policy;
    const answer = await t.call('PATCH', `/agents/${a.agentId}/policy`, { body });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.policy).toEqual({ ...before, ...changes });
    expect((await t.call('GET', `/agents/${a.agentId}`)).body.policy).toEqual(answer.body.policy);
  });

  it('a partial policy change rules the next operation: the execution mode alone makes a transfer wait', async () => {
    const a = await setup();
    await t.call('PATCH', `/agents/${a.agentId}/policy`, { body: { defaultExecutionMode: 'APPROVAL_REQUIRED' } });
    const sent = await a.send(100);
    expect(sent.body.status).toBe('PENDING_APPROVAL');
    await t.call('PATCH', `/agents/${a.agentId}/policy`, { body: { permissions: ['VIEW_TRANSACTIONS'] } });
    expect(errorShape(await a.send(100))).toMatchObject({ status: 403, details: { permission: 'CREATE_TRANSFERS' } });
  });

  it('delete: 204, the token stops working, pending actions are rejected, then 404', async () => {
    const a = await setup({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const pending = await a.send(100);
    expect(pending.status).toBe(201);
    expect(pending.body.status).toBe('PENDING_APPROVAL');
    expect((await t.call('DELETE', `/agents/${a.agentId}`)).status).toBe(204);
    expect(errorShape(await t.call('GET', '/agents/me', { auth: a.bearer }))).toMatchObject({ status: 401 });
    expect((await t.call('GET', `/agents/approvals?agentId=${a.agentId}`)).body.data).toEqual([]);
    expect(errorShape(await t.call('GET', `/agents/${a.agentId}`))).toMatchObject({ status: 404 });
    expect(errorShape(await t.call('PATCH', `/agents/${a.agentId}`, { body: { isPaused: true } }))).toMatchObject({
      status: 404,
    });
  });

  it('Basic only: the agent cannot unpause or re-police itself (401); bad fields 400', async () => {
    const a = await setup();
    expect(
      errorShape(await t.call('PATCH', `/agents/${a.agentId}`, { auth: a.bearer, body: { isPaused: false } })),
    ).toMatchObject({ status: 401 });
    expect(
      errorShape(await t.call('PATCH', `/agents/${a.agentId}/policy`, { auth: a.bearer, body: policy() })),
    ).toMatchObject({ status: 401 });
    const bad = await t.call('PATCH', `/agents/${a.agentId}`, { body: { isPaused: 'yes', name: '' } });
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['isPaused']);
  });

  it('GET /agents filters by isPaused and isConnected and pages; bad filters 400 listing each', async () => {
    const a = await setup();
    const c = await newCustomer(t);
    const idle = (await t.call('POST', '/agents', { body: { name: 'Idle bot', customerId: c.id, policy: policy() } }))
      .body.agent.id;
    await t.call('PATCH', `/agents/${a.agentId}`, { body: { isPaused: true } });
    const ids = async (query: string) =>
      (await t.call('GET', `/agents?${query}`)).body.data.map((x: { id: string }) => x.id);
    expect(await ids('isPaused=true')).toContain(a.agentId);
    expect(await ids('isPaused=true')).not.toContain(idle);
    expect(await ids(`isConnected=false&customerId=${c.id}`)).toEqual([idle]);
    expect(await ids(`isConnected=true&customerId=${c.id}`)).toEqual([]);
    const first = await t.call('GET', '/agents?limit=1');
    expect(first.body).toMatchObject({ data: [expect.any(Object)], hasMore: true, nextCursor: expect.any(String) });
    const bad = await t.call('GET', '/agents?isPaused=yes&isConnected=1&limit=0');
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'isPaused',
      'isConnected',
      'limit',
    ]);
  });
});
