/**
 * POST /transactions/{id}/cancel, /approve, /reject over HTTP: a bank payment still pending (the
 * sandbox's 005 account: pending 30 s) is cancelled and its held money comes back; anything
 * settled is 409 TRANSACTION_NOT_CANCELLABLE, anything not ACH or wire 400; approve and reject of a
 * payment that does not wait for the platform's approval are 409 (the approval itself:
 * payment-approval.test.ts).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalances, externalAccount, fund, newCustomer } from './support.js';
import { basicAuth, errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
let c: { id: string; usd: string; eur: string };
beforeAll(async () => {
  t = await testEmulator();
  c = await newCustomer(t);
  await fund(t, c.usd, 100_000);
  await fund(t, c.eur, 100_000);
});
afterAll(() => t.close());

const transfer = async (direction: 'in' | 'out', internal: string, external: string, amount: number) => {
  const body =
    direction === 'out'
      ? { source: { accountId: internal }, destination: { accountId: external }, amount }
      : { source: { accountId: external }, destination: { accountId: internal }, amount };
  const answer = await t.call('POST', `/transfer-${direction}`, { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; status: string };
};

async function eventsOf(id: string): Promise<string[]> {
  const res = await request(`${new URL(t.emu.baseUrl).origin}/_emulator/webhooks/events`, {
    headers: { authorization: basicAuth(t.emu) },
  });
  const all = ((await res.body.json()) as { data: Array<{ type: string; data: { id: string } }> }).data;
  return all.filter((e) => e.data.id === id).map((e) => e.type);
}

describe('cancel', () => {
  it('a pending payout: 200 FAILED with a USER_CANCELLATION refund, the held money is back, nothing happens at 30 s', async () => {
    const bank = await externalAccount(t, c.id, 'USD_ACCOUNT', '005');
    const before = await accountBalances(t, c.usd);
    const tx = await transfer('out', c.usd, bank, 3_000);
    expect(tx.status).toBe('PENDING');
    expect(await accountBalances(t, c.usd)).toEqual({
      balance: before.balance - 3_000,
      totalBalance: before.totalBalance,
    });
    const cancelled = await t.call('POST', `/transactions/${tx.id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: tx.id,
      status: 'FAILED',
      refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
    });
    expect(await accountBalances(t, c.usd)).toEqual(before);
    expect(await eventsOf(tx.id)).toEqual([
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);

    t.emu.testing.advanceClock(31_000);
    expect((await t.call('GET', `/transactions/${tx.id}`)).body.status).toBe('FAILED');
    expect(await accountBalances(t, c.usd)).toEqual(before);
    expect(errorShape(await t.call('POST', `/transactions/${tx.id}/cancel`))).toMatchObject({
      status: 409,
      code: 'TRANSACTION_NOT_CANCELLABLE',
    });
  });

  it('a pending pull: FAILED, nothing is ever credited', async () => {
    const bank = await externalAccount(t, c.id, 'USD_ACCOUNT', '005');
    const before = await accountBalances(t, c.usd);
    const tx = await transfer('in', c.usd, bank, 2_000);
    expect(
      (await t.call('POST', `/transactions/${tx.id}/cancel`, { body: { reason: 'changed my mind' } })).body.status,
    ).toBe('FAILED');
    t.emu.testing.advanceClock(31_000);
    expect(await accountBalances(t, c.usd)).toEqual(before);
  });

  it('too late once the clock has settled it (409), or when it completed at once (409)', async () => {
    const slow = await transfer('out', c.usd, await externalAccount(t, c.id, 'USD_ACCOUNT', '005'), 100);
    t.emu.testing.advanceClock(30_000);
    expect(errorShape(await t.call('POST', `/transactions/${slow.id}/cancel`))).toMatchObject({
      status: 409,
      code: 'TRANSACTION_NOT_CANCELLABLE',
    });
    const done = await transfer('out', c.usd, await externalAccount(t, c.id, 'USD_ACCOUNT', '000'), 100);
    expect(done.status).toBe('COMPLETED');
    expect(errorShape(await t.call('POST', `/transactions/${done.id}/cancel`))).toMatchObject({
      status: 409,
      code: 'TRANSACTION_NOT_CANCELLABLE',
    });
  });

  it('not ACH or wire: 400 (an IBAN payout, a USD payout on RTP; WIRE is fine); unknown 404; a bad body 400', async () => {
    const sepa = await transfer('out', c.eur, await externalAccount(t, c.id, 'EUR_ACCOUNT', '005'), 100);
    expect(errorShape(await t.call('POST', `/transactions/${sepa.id}/cancel`))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    const bank = await externalAccount(t, c.id, 'USD_ACCOUNT', '005');
    const rtp = await t.call('POST', '/transfer-out', {
      body: { source: { accountId: c.usd }, destination: { accountId: bank, paymentRail: 'RTP' }, amount: 100 },
    });
    expect(rtp.body).toMatchObject({ status: 'PENDING', paymentRail: 'RTP' });
    expect(errorShape(await t.call('POST', `/transactions/${rtp.body.id}/cancel`))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    const wire = await t.call('POST', '/transfer-out', {
      body: { source: { accountId: c.usd }, destination: { accountId: bank, paymentRail: 'WIRE' }, amount: 100 },
    });
    expect((await t.call('POST', `/transactions/${wire.body.id}/cancel`)).body.status).toBe('FAILED');
    expect(
      errorShape(await t.call('POST', '/transactions/Transaction:00000000-0000-4000-8000-000000000000/cancel')),
    ).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
    const pending = await transfer('out', c.usd, bank, 100);
    const bad = await t.call('POST', `/transactions/${pending.id}/cancel`, { body: { reason: 5 } });
    expect(errorShape(bad)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'reason' }] },
    });
    expect((await t.call('GET', `/transactions/${pending.id}`)).body.status).toBe('PENDING');
  });
});

describe('approve and reject', () => {
  it.each(['approve', 'reject'])(
    '%s of an outgoing payment: 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL (only incoming ones wait), 404 unknown',
    async (verb) => {
      const tx = await transfer('out', c.usd, await externalAccount(t, c.id, 'USD_ACCOUNT', '005'), 100);
      expect(errorShape(await t.call('POST', `/transactions/${tx.id}/${verb}`))).toMatchObject({
        status: 409,
        code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      });
      expect((await t.call('GET', `/transactions/${tx.id}`)).body.status).toBe('PENDING');
      expect(
        errorShape(await t.call('POST', `/transactions/Transaction:00000000-0000-4000-8000-000000000000/${verb}`)),
      ).toMatchObject({ status: 404 });
    },
  );
});
