/**
 * CI-size contention check: 200 quote executions at once against one internal account, over real
 * HTTP, with Idempotency-Keys repeated (same quote) and misused (another quote) among them. The
 * account must never go below zero, a key must execute at most one quote once, each repeat must get
 * its first answer, and the ledger must agree with the transactions.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testEmulator, type TestEmulator } from '../support.js';
import { accountBalances, accountQuote, externalAccount, fund, platformAccount } from './support.js';

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
  for (let i = 0; i < 150; i++)
    quoteIds.push((await t.call('POST', '/quotes', { body: accountQuote(source, destination, AMOUNT) })).body.id);
  const keys = quoteIds.map(() => randomUUID());
  // 150 quotes with their own keys, 40 repeats (same quote, same key), 10 keys misused on another quote; shuffled.
  const calls = [
    ...quoteIds.map((id, i) => ({ id, key: keys[i]! })),
    ...quoteIds.slice(0, 40).map((id, i) => ({ id, key: keys[i]! })),
    ...quoteIds.slice(40, 50).map((id, i) => ({ id, key: keys[100 + i]! })),
  ];
  calls.sort(() => Math.random() - 0.5);
  const answers = await Promise.all(
    calls.map(async (c) => ({
      ...c,
      a: await t.call('POST', `/quotes/${c.id}/execute`, { headers: { 'idempotency-key': c.key } }),
    })),
  );

  const ok = answers.filter((x) => x.a.status === 200);
  for (const x of answers.filter((y) => y.a.status !== 200)) {
    // Refused for want of money, for a key already bound to another quote, or for a quote already executed under another key.
    expect([
      ['400', 'INVALID_AMOUNT'],
      ['400', 'INVALID_INPUT'],
      ['409', 'CONFLICT'],
    ]).toContainEqual([String(x.a.status), x.a.body.code]);
  }
  const byKey = new Map<string, { quotes: Set<string>; txs: Set<string>; bodies: Set<string> }>();
  for (const x of ok) {
    const entry = byKey.get(x.key) ?? { quotes: new Set(), txs: new Set(), bodies: new Set() };
    entry.quotes.add(x.id);
    entry.txs.add(x.a.body.transactionId);
    entry.bodies.add(x.a.text);
    byKey.set(x.key, entry);
  }
  for (const [, e] of byKey) expect([e.quotes.size, e.txs.size, e.bodies.size]).toEqual([1, 1, 1]);
  const executed = new Set(ok.map((x) => x.a.body.transactionId));
  expect(executed.size).toBe(AFFORDABLE);

  expect(await accountBalances(t, source)).toEqual({ balance: 0, totalBalance: 0 });
  const moved = await t.call('GET', `/transactions?senderAccountIdentifier=${source}&limit=100`);
  expect(moved.body.totalCount).toBe(AFFORDABLE);
  expect(new Set(moved.body.data.map((x: any) => x.quoteId)).size).toBe(AFFORDABLE); // no quote paid twice
});
