/** Money on its way survives a restart with --state: its course resumes, holds stay, keys are remembered. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { testEmulator } from './support.js';
import { accountBalances, accountQuote, externalAccount, fund, platformAccount } from './money-support.js';

it('a 6-minute execution and a 30-second payout started before a restart finish after it', async () => {
  const statePath = join(mkdtempSync(join(tmpdir(), 'svc-emu-money-')), 'state.json');
  const first = await testEmulator({ statePath });
  const source = await platformAccount(first);
  await fund(first, source, 100_000);
  const slow = await externalAccount(first, undefined, 'USD_ACCOUNT', '003');
  const failing = await externalAccount(first, undefined, 'USD_ACCOUNT', '005');
  const q = await first.call('POST', '/quotes', { body: accountQuote(source, slow, 10_000) });
  const key = randomUUID();
  const executed = await first.call('POST', `/quotes/${q.body.id}/execute`, { headers: { 'idempotency-key': key } });
  const payout = await first.call('POST', '/transfer-out', { body: { source: { accountId: source }, destination: { accountId: failing }, amount: 5_000 } });
  expect(await accountBalances(first, source)).toEqual({ balance: 85_000, totalBalance: 100_000 });
  await first.close();

  const second = await testEmulator({ statePath });
  try {
    expect(await accountBalances(second, source)).toEqual({ balance: 85_000, totalBalance: 100_000 });
    expect((await second.call('POST', `/quotes/${q.body.id}/execute`, { headers: { 'idempotency-key': key } })).body).toEqual(executed.body);
    second.emu.testing.advanceClock(6 * 60_000);
    expect((await second.call('GET', `/transactions/${executed.body.transactionId}`)).body.status).toBe('COMPLETED');
    expect((await second.call('GET', `/transactions/${payout.body.id}`)).body.status).toBe('FAILED');
    expect(await accountBalances(second, source)).toEqual({ balance: 90_000, totalBalance: 90_000 });
  } finally {
    await second.close();
  }
});
