/**
 * CI-size contention check: 200 quote executions at once against one internal account, with
 * repeated Idempotency-Keys among them, over real HTTP. The account must never go below zero, every
 * key must move money at most once, and each repeat must get its first answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testEmulator, type TestEmulator } from './support.js';
import { accountBalances, accountQuote, externalAccount, fund, platformAccount } from './money-support.js';

const AMOUNT = 1_000;
const AFFORDABLE = 60;
let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

it('200 concurrent executions: no overdraft, no key spent twice', async () => {
  const source = await platformAccount(t);
  await fund(t, source, AMOUNT * AFFORDABLE);
  const destination = await externalAccount(t, undefined, 'USD_ACCOUNT', '900');
  const quoteIds: string[] = [];
  for (let i = 0; i < 150; i++) {
    const q = await t.call('POST', '/quotes', { body: accountQuote(source, destination, AMOUNT) });
    quoteIds.push(q.body.id);
  }
  // 150 distinct quotes with their own keys, then 50 repeats of the first 50 (same quote, same key), shuffled.
  const keys = quoteIds.map(() => randomUUID());
  const calls = [...quoteIds.map((id, i) => ({ id, key: keys[i]! })), ...quoteIds.slice(0, 50).map((id, i) => ({ id, key: keys[i]! }))];
  calls.sort(() => Math.random() - 0.5);
  const answers = await Promise.all(calls.map((c) => t.call('POST', `/quotes/${c.id}/execute`, { headers: { 'idempotency-key': c.key } }).then((a) => ({ ...c, a }))));

  const ok = answers.filter((x) => x.a.status === 200);
  const refused = answers.filter((x) => x.a.status !== 200);
  for (const x of refused) expect(x.a.body.code).toBe('INVALID_AMOUNT'); // insufficient funds, nothing else
  const byKey = new Map<string, Set<string>>();
  for (const x of ok) byKey.set(x.key, (byKey.get(x.key) ?? new Set()).add(x.a.body.transactionId));
  for (const [, txIds] of byKey) expect(txIds.size).toBe(1); // a repeated key got the same transaction
  expect(byKey.size).toBe(AFFORDABLE);

  const balances = await accountBalances(t, source);
  expect(balances).toEqual({ balance: 0, totalBalance: 0 });
  const moved = await t.call('GET', `/transactions?senderAccountIdentifier=${source}&status=COMPLETED&limit=100`);
  expect(moved.body.totalCount).toBe(AFFORDABLE);
});
