/** Internal accounts over HTTP: the description's lists, balances with totalBalance, fund emitting BALANCE_UPDATED. */
import { expect, it } from 'vitest';
import { delivered, errorShape, useEmulatorWithWebhooks } from '../support.js';
import { newCustomer } from './support.js';
import { CURRENCY_CODES } from '../../../../src/service/currencies.js';

const { t, hooks } = useEmulatorWithWebhooks();

it('GET /platform/internal-accounts: one account per currency the description names, no customerId, {data} only', async () => {
  const answer = await t.call('GET', '/platform/internal-accounts');
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body)).toEqual(['data']);
  expect(answer.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual([...CURRENCY_CODES].sort());
  const crypto = new Set(['BTC', 'USDC', 'USDT']);
  for (const a of answer.body.data) {
    expect(a).toMatchObject({
      type: crypto.has(a.balance.currency.code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
      status: 'ACTIVE',
      totalBalance: { amount: 0 },
      fundingPaymentInstructions: [],
    });
    expect(a).not.toHaveProperty('customerId');
    expect(a).not.toHaveProperty('privateEnabled');
  }
  expect((await t.call('GET', '/platform/internal-accounts?currency=MXN')).body.data).toHaveLength(1);
});

it('GET /customers/internal-accounts filters by customer, currency and type, and pages', async () => {
  const c = await newCustomer(t, 'List Person');
  const mine = await t.call('GET', `/customers/internal-accounts?customerId=${c.id}`);
  expect(mine.body).toMatchObject({ hasMore: false, totalCount: 2 });
  expect(mine.body.data.map((a: any) => [a.customerId, a.type, a.balance.currency.code, a.privateEnabled])).toEqual([
    [c.id, 'EMBEDDED_WALLET', 'USD', false],
    [c.id, 'EMBEDDED_WALLET', 'EUR', false],
  ]);
  expect(
    (await t.call('GET', `/customers/internal-accounts?customerId=${c.id}&currency=EUR`)).body.data.map(
      (a: any) => a.id,
    ),
  ).toEqual([c.eur]);
  expect((await t.call('GET', `/customers/internal-accounts?customerId=${c.id}&type=INTERNAL_FIAT`)).body.data).toEqual(
    [],
  );
  const all = await t.call('GET', '/customers/internal-accounts?limit=1');
  expect(all.body).toMatchObject({
    hasMore: true,
    data: [expect.objectContaining({ customerId: expect.any(String) })],
  });
  const bad = await t.call('GET', '/customers/internal-accounts?customerId=x&type=SAVINGS&cursor=!!');
  expect(errorShape(bad).details.errors.map((e: any) => e.field)).toEqual(['type']);
});

it('funding emits INTERNAL_ACCOUNT.BALANCE_UPDATED with the new balances', async () => {
  const c = await newCustomer(t, 'Funded Person');
  await t.call('POST', `/sandbox/internal-accounts/${c.usd}/fund`, { body: { amount: 1_234 } });
  await delivered(t);
  const event = hooks.deliveries.find(
    (d) => d.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && d.body.data.id === c.usd,
  );
  expect(event?.body.data).toMatchObject({
    balance: { amount: 1_234 },
    totalBalance: { amount: 1_234 },
    customerId: c.id,
  });
});
