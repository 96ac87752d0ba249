/**
 * The platform's approval of an incoming payment, row by row of the description's incoming-payment
 * webhook: a UMA receipt is PENDING until the platform answers INCOMING_PAYMENT.PENDING. 200
 * approves, 403 rejects, 422 fails it for missing payee data, another answer fails it, and 202
 * hands the decision to POST /transactions/{id}/approve or /reject, due within 5 s of the emulator
 * clock or it is rejected (FAILED, PAYMENT_APPROVAL_TIMED_OUT). Time moves by the virtual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalances, newCustomer } from './support.js';
import { errorShape, eventually, testEmulator, webhookReceiver, type Receiver, type TestEmulator } from '../support.js';

let t: TestEmulator;
let hooks: Receiver;
/** What the platform answers to the next INCOMING_PAYMENT.PENDING (every other event: 200). */
let answer = 200;

beforeAll(async () => {
  // A slow clock (1 real second is 1 emulator ms): only advanceClock moves time, so 4,999 ms is 4,999 ms.
  t = await testEmulator({ timeScale: 0.001 });
  hooks = await webhookReceiver((_n, d) => (d.body.type === 'INCOMING_PAYMENT.PENDING' ? answer : 200));
  await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
});
afterAll(async () => {
  await t.close();
  await hooks.close();
});

/** A fresh customer (its own balance) receives 2,000 from a sandbox UMA sender while the platform answers `status`. */
async function receive(status: number) {
  answer = status;
  const c = await newCustomer(t);
  const customer = (await t.call('GET', `/customers/${c.id}`)).body;
  const tx = await t.call('POST', '/sandbox/uma/receive', {
    body: {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receiverUmaAddress: customer.umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 2_000,
    },
  });
  expect(tx.status, tx.text).toBe(200);
  return { id: tx.body.id as string, first: tx.body, account: c.usd };
}

/** The event types the platform received for a transaction, and the status each carried. */
async function events(id: string): Promise<string[]> {
  // Refused deliveries are retried after a backoff on the (slow) clock: move it until all are done.
  await eventually(() => {
    if (t.emu.testing.pendingWebhooks() === 0) return true;
    t.emu.testing.advanceClock(100);
    return undefined;
  });
  return hooks.deliveries.filter((d) => d.body.data?.id === id).map((d) => `${d.body.type} ${d.body.data.status}`);
}

const get = async (id: string) => (await t.call('GET', `/transactions/${id}`)).body;

describe('the webhook answer decides', () => {
  it.each([
    [200, 'COMPLETED', undefined, 2_000, 'INCOMING_PAYMENT.COMPLETED COMPLETED'],
    [403, 'REJECTED', undefined, 0, 'INCOMING_PAYMENT.FAILED REJECTED'],
    [422, 'FAILED', 'MISSING_MANDATORY_PAYEE_DATA', 0, 'INCOMING_PAYMENT.FAILED FAILED'],
    [500, 'FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR', 0, 'INCOMING_PAYMENT.FAILED FAILED'],
  ])('answered %i: %s (%s), %i credited', async (status, final, failureReason, credited, lastEvent) => {
    const { id, first, account } = await receive(status);
    expect(first).toMatchObject({ status: final, type: 'INCOMING' });
    expect(first.failureReason).toBe(failureReason);
    expect((await accountBalances(t, account)).balance).toBe(credited);
    expect((await events(id)).filter((e) => !e.endsWith('PENDING'))).toEqual([lastEvent]);
    // A decision (200, 403, 422) ends the delivery; a failure (500) is retried like any webhook.
    const asked = (await events(id)).filter((e) => e === 'INCOMING_PAYMENT.PENDING PENDING').length;
    if (status === 500) expect(asked).toBeGreaterThan(1);
    else expect(asked).toBe(1);
    // Decided by the answer: nothing is left for approve or reject.
    for (const verb of ['approve', 'reject'])
      expect(errorShape(await t.call('POST', `/transactions/${id}/${verb}`))).toMatchObject({
        status: 409,
        code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      });
  });
});

describe('answered 202: the platform decides within 5 s (emulator clock)', () => {
  it.each([
    ['approve', 0, 200, 'COMPLETED', 2_000],
    ['approve', 4_999, 200, 'COMPLETED', 2_000],
    ['reject', 4_999, 200, 'REJECTED', 0],
    ['approve', 5_000, 409, 'FAILED', 0],
    ['reject', 5_000, 409, 'FAILED', 0],
  ])('%s after %i ms: %i, then %s, %i credited', async (verb, afterMs, status, final, credited) => {
    const { id, first, account } = await receive(202);
    expect(first).toMatchObject({ id, status: 'PENDING' });
    t.emu.testing.advanceClock(afterMs);
    const decided = await t.call('POST', `/transactions/${id}/${verb}`, {
      body: verb === 'reject' ? { reason: 'RESTRICTED_JURISDICTION' } : { receiverCustomerInfo: { NATIONALITY: 'US' } },
    });
    expect(decided.status, decided.text).toBe(status);
    if (status === 200) expect(decided.body).toMatchObject({ id, type: 'INCOMING', status: final });
    else expect(errorShape(decided).message).toMatch(/5 s/);
    const after = await get(id);
    expect(after.status).toBe(final);
    if (final === 'FAILED') expect(after.failureReason).toBe('PAYMENT_APPROVAL_TIMED_OUT');
    expect((await accountBalances(t, account)).balance).toBe(credited);
    // Decided once: a second call is 409.
    expect(errorShape(await t.call('POST', `/transactions/${id}/approve`))).toMatchObject({ status: 409 });
  });

  it('nobody decides: at 5 s it is FAILED (PAYMENT_APPROVAL_TIMED_OUT), announced, nothing credited', async () => {
    const { id, account } = await receive(202);
    t.emu.testing.advanceClock(4_999);
    expect((await get(id)).status).toBe('PENDING');
    t.emu.testing.advanceClock(1);
    expect(await get(id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect(await events(id)).toEqual(['INCOMING_PAYMENT.PENDING PENDING', 'INCOMING_PAYMENT.FAILED FAILED']);
    expect((await accountBalances(t, account)).balance).toBe(0);
  });

  it('bad bodies are 400 naming the field and decide nothing; an unknown transaction is 404', async () => {
    const { id } = await receive(202);
    const bad = await t.call('POST', `/transactions/${id}/approve`, { body: { receiverCustomerInfo: 'US' } });
    expect(errorShape(bad)).toMatchObject({ status: 400, details: { errors: [{ field: 'receiverCustomerInfo' }] } });
    const badReason = await t.call('POST', `/transactions/${id}/reject`, { body: { reason: 7 } });
    expect(errorShape(badReason)).toMatchObject({ status: 400, details: { errors: [{ field: 'reason' }] } });
    expect((await get(id)).status).toBe('PENDING'); // refused calls decide nothing
    const unknown = await t.call('POST', '/transactions/Transaction:00000000-0000-4000-8000-000000000000/approve');
    expect(errorShape(unknown)).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
  });
});
