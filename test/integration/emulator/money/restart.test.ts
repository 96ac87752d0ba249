/** Money on its way survives a restart with --state: its course resumes, holds stay, keys are remembered. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { testEmulator, webhookReceiver } from '../support.js';
import { accountBalances, accountQuote, externalAccount, fund, platformAccount } from './support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

it('a 6-minute execution and a 30-second payout started before a restart finish after it', async () => {
  const statePath = join(tempDir('svc-emu-money-'), 'state.json');
  const first = await testEmulator({ statePath });
  const source = await platformAccount(first);
  await fund(first, source, 100_000);
  const slow = await externalAccount(first, undefined, 'USD_ACCOUNT', '003');
  const failing = await externalAccount(first, undefined, 'USD_ACCOUNT', '005');
  const q = await first.call('POST', '/quotes', { body: accountQuote(source, slow, 10_000) });
  const key = randomUUID();
  const executed = await first.call('POST', `/quotes/${q.body.id}/execute`, { headers: { 'idempotency-key': key } });
  const payout = await first.call('POST', '/transfer-out', {
    body: { source: { accountId: source }, destination: { accountId: failing }, amount: 5_000 },
  });
  expect(await accountBalances(first, source)).toEqual({ balance: 85_000, totalBalance: 100_000 });
  await first.close();

  const second = await testEmulator({ statePath });
  try {
    expect(await accountBalances(second, source)).toEqual({ balance: 85_000, totalBalance: 100_000 });
    expect(
      (await second.call('POST', `/quotes/${q.body.id}/execute`, { headers: { 'idempotency-key': key } })).body,
    ).toEqual(executed.body);
    second.emu.testing.advanceClock(6 * 60_000);
    expect((await second.call('GET', `/transactions/${executed.body.transactionId}`)).body.status).toBe('COMPLETED');
    expect((await second.call('GET', `/transactions/${payout.body.id}`)).body.status).toBe('FAILED');
    expect(await accountBalances(second, source)).toEqual({ balance: 90_000, totalBalance: 90_000 });
  } finally {
    await second.close();
  }
});

it('a state file of the earlier shape (flat transactions, real-time-funding quotes with a body) still reads', async () => {
  const statePath = join(tempDir('svc-emu-money-'), 'state.json');
  const first = await testEmulator({ statePath });
  const { quoteId, accountId } = first.emu.fixtures;
  const paid = await first.call('POST', '/sandbox/send', { body: { quoteId, currencyCode: 'USD' } });
  await first.close();
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  state.transactions = { [paid.body.id]: { ...paid.body } }; // the earlier shape: the rendered body itself
  const q = state.quotes[quoteId];
  state.quotes[quoteId] = {
    id: quoteId,
    status: 'COMPLETED',
    sendingCurrency: 'USD',
    totalSendingAmount: q.totalSendingAmount,
    receivingCurrency: 'USD',
    totalReceivingAmount: q.totalReceivingAmount,
    destinationAccountId: accountId,
    expiresAtMs: q.expiresAtMs,
    transactionId: paid.body.id,
    body: {
      createdAt: new Date(q.createdAtMs).toISOString(),
      source: q.source,
      destination: q.destination,
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      exchangeRate: 1,
      feesIncluded: 0,
    },
  };
  writeFileSync(statePath, JSON.stringify(state), { mode: 0o600 });

  const second = await testEmulator({ statePath });
  try {
    expect((await second.call('GET', `/transactions/${paid.body.id}`)).body).toMatchObject({
      id: paid.body.id,
      status: 'COMPLETED',
      quoteId,
    });
    const list = await second.call('GET', `/transactions?accountIdentifier=${accountId}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: any) => x.id)).toContain(paid.body.id);
    expect((await second.call('GET', `/quotes/${quoteId}`)).body).toMatchObject({
      status: 'COMPLETED',
      transactionId: paid.body.id,
      totalSendingAmount: q.totalSendingAmount,
    });
  } finally {
    await second.close();
  }
});

it('an incoming payment waiting for the platform (its webhook answered 202) still times out after a restart', async () => {
  const statePath = join(tempDir('svc-emu-money-'), 'state.json');
  const hooks = await webhookReceiver((_n, d) => (d.body.type === 'INCOMING_PAYMENT.PENDING' ? 202 : 200));
  const first = await testEmulator({ statePath });
  await first.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
  const received = await first.call('POST', '/sandbox/uma/receive', {
    body: {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receiverUmaAddress: first.emu.fixtures.umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 1_000,
    },
  });
  expect(received.body.status).toBe('PENDING');
  await first.close();

  const second = await testEmulator({ statePath });
  try {
    // The deadline (5 s after the 202, on the first run's clock) is re-armed: it has passed 5 s from now.
    second.emu.testing.advanceClock(5_000);
    expect((await second.call('GET', `/transactions/${received.body.id}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
    });
  } finally {
    await second.close();
    await hooks.close();
  }
});
