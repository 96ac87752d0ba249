/**
 * An agent's Bearer token is bound to its customer (spec "Authentication" 2). Two ways around that
 * binding that carry no other customer's id for the kernel's scope to catch: an incoming UMA payment
 * simulated to another customer's UMA address, and the platform's own webhook configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWallet, type Wallet } from '../auth/support.js';
import { connectAgent, errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
let mine: Wallet;
let bearer: string;
beforeAll(async () => {
  t = await testEmulator();
  mine = await newWallet(t);
  const policy = {
    permissions: ['VIEW_TRANSACTIONS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null },
  };
  ({ bearer } = await connectAgent(t, mine.customerId, policy, 'Scope bot'));
});
afterAll(() => t.close());

const asAgent = (method: string, path: string, body?: object) =>
  t.call(method, path, { auth: bearer, ...(body ? { body } : {}) });
const umaOf = async (customerId: string): Promise<string> =>
  (await t.call('GET', `/customers/${customerId}`)).body.umaAddress;
const balanceOf = async (accountId: string): Promise<number> =>
  (await t.call('GET', `/internal-accounts/${accountId}`)).body.balance.amount;

describe('POST /sandbox/uma/receive with an agent token', () => {
  const receive = (receiverUmaAddress: string) =>
    asAgent('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receiverUmaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 500,
    });

  it("another customer's UMA address is 404 UMA_NOT_FOUND, as if unknown, and credits nothing", async () => {
    const other = t.emu.fixtures;
    const before = await balanceOf(other.accountId);
    expect(errorShape(await receive(other.umaAddress))).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
    expect(await balanceOf(other.accountId)).toBe(before);
    expect(
      (
        await t.call('GET', `/transactions?receiverAccountIdentifier=${other.accountId}&type=INCOMING&limit=100`)
      ).body.data.filter((tx: { receiverUmaAddress?: string }) => tx.receiverUmaAddress === other.umaAddress),
    ).toEqual([]);
  });

  it("its own customer's address is received as with platform credentials", async () => {
    const paid = await receive(await umaOf(mine.customerId));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 500 } });
  });
});

describe("the platform's webhook configuration with an agent token", () => {
  it.each([
    ['GET', '/config', undefined],
    ['PATCH', '/config', { webhookEndpoint: 'http://127.0.0.1:9/stolen' }],
    ['POST', '/sandbox/webhooks/test', {}],
  ])('%s %s is 403 FORBIDDEN and changes nothing', async (method, path, body) => {
    expect(
      (await t.call('PATCH', '/config', { body: { webhookEndpoint: 'http://127.0.0.1:9/platform' } })).status,
    ).toBe(200);
    expect(errorShape(await asAgent(method, path, body))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await t.call('GET', '/config')).body).toMatchObject({ webhookEndpoint: 'http://127.0.0.1:9/platform' });
  });
});
