/**
 * Paging's limits are the description's, checked by the schema check on every paged operation
 * (each operation of the digest with a `limit` parameter, as the platform or, for /agents/me/…, as
 * an agent): an integer in 1…100, else 400 INVALID_INPUT naming `limit` with the schema's rule. The
 * handlers (kernel/paging.ts) keep only the emulator's own rule: a cursor is one it returned.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent, errorShape, testEmulator, type TestEmulator } from '../support.js';
import { newCustomer } from '../money/support.js';

const operations: Record<string, { parameters: { name: string; in: string }[] }> = JSON.parse(
  readFileSync(new URL('../../../contract/api-schema.json', import.meta.url), 'utf8'),
).operations;
const PAGED = Object.entries(operations)
  .filter(([, op]) => op.parameters.some((p) => p.name === 'limit' && p.in === 'query'))
  .map(([key]) => key.split(' ')[1]!);

let t: TestEmulator;
let agent: string;
beforeAll(async () => {
  t = await testEmulator();
  const policy = {
    permissions: [
      'VIEW_TRANSACTIONS',
      'CREATE_TRANSFERS',
      'CREATE_QUOTES',
      'EXECUTE_QUOTES',
      'MANAGE_EXTERNAL_ACCOUNTS',
    ],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null },
  };
  agent = (await connectAgent(t, (await newCustomer(t)).id, policy, 'Paging bot')).bearer;
});
afterAll(() => t.close());

/** A paged list with `query`, as the caller the operation is for; path parameters filled with ids of their kind. */
const list = (path: string, query: string) =>
  t.call('GET', `${path.replace('{stablecoinId}', 'Stablecoin:00000000-0000-4000-8000-000000000000')}?${query}`, {
    ...(path.startsWith('/agents/me/') ? { auth: agent } : {}),
  });

it('the digest has the paged operations this test expects (21)', () => {
  expect(PAGED).toHaveLength(21);
});

describe.each(PAGED)('GET %s', (path) => {
  it.each([
    ['0', 'minimum'],
    ['101', 'maximum'],
    ['ten', 'type'],
    ['2.5', 'type'],
  ])('limit=%s: 400 naming limit (rule %s)', async (limit, rule) => {
    const answer = await list(path, `limit=${limit}`);
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors).toContainEqual(expect.objectContaining({ field: 'limit', rule }));
  });

  it.each(['1', '100'])('limit=%s is not refused', async (limit) => {
    const answer = await list(path, `limit=${limit}`);
    const named = answer.status === 400 ? answer.body.details.errors.map((e: { field: string }) => e.field) : [];
    expect(named, answer.text).not.toContain('limit');
  });
});

it('a cursor this server did not return: 400 naming cursor (the emulator’s rule, after the schema check)', async () => {
  const answer = await t.call('GET', '/customers?cursor=bm90LWFuLW9mZnNldA');
  expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
});
