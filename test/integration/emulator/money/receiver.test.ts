/**
 * Receiver look-ups: an emulator customer's UMA address takes its accounts' currencies, a sandbox
 * scenario address its own, an external account its currency; each preference carries the
 * emulator's rate from USD and the single-transaction maximum. Unknown receivers are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalAccount } from './support.js';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator({ transactionLimits: { USD: 500_000, EUR: 400_000, MXN: 9_000_000 } });
});
afterAll(() => t.close());

const uma = (address: string, query = '') => t.call('GET', `/receiver/uma/${encodeURIComponent(address)}${query}`);

describe('GET /receiver/uma/{address}', () => {
  it('a customer of the emulator: its accounts’ currencies, rate from USD, max the size limit', async () => {
    const answer = await uma(t.emu.fixtures.umaAddress);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      receiverUmaAddress: t.emu.fixtures.umaAddress,
      lookupId: expect.stringMatching(/^Lookup:/),
    });
    const byCode = Object.fromEntries(answer.body.supportedCurrencies.map((p: any) => [p.currency.code, p]));
    expect(Object.keys(byCode).sort()).toEqual(['EUR', 'USD']);
    expect(byCode.USD).toMatchObject({ estimatedExchangeRate: 1, min: 1, max: 500_000 });
    expect(byCode.EUR.estimatedExchangeRate).toBeCloseTo(0.92, 2);
    expect(byCode.EUR.max).toBe(400_000);
  });

  it.each([
    ['$success.mxn@sandbox.example', 'MXN'],
    ['$pending.long.usd@sandbox.example', 'USD'],
  ])('the sandbox scenario %s takes %s', async (address, code) => {
    const answer = await uma(address);
    expect(answer.body.supportedCurrencies.map((p: any) => p.currency.code)).toEqual([code]);
  });

  it.each([
    ['a well-formed address with no receiver', '$nobody@elsewhere.example', 404, 'UMA_NOT_FOUND'],
    ['not a UMA address', 'nobody', 400, 'INVALID_UMA_ADDRESS'],
  ])('%s: %i %s', async (_name, address, status, code) => {
    expect(errorShape(await uma(address))).toMatchObject({ status, code });
  });

  it('an unknown customerId is 404 USER_NOT_FOUND; a bad one 400 naming it', async () => {
    const unknown = await uma(t.emu.fixtures.umaAddress, '?customerId=Customer:00000000-0000-0000-0000-000000000000');
    expect(errorShape(unknown).code).toBe('USER_NOT_FOUND');
    const bad = await uma(t.emu.fixtures.umaAddress, '?customerId=nope');
    expect(errorShape(bad).details.errors[0].field).toBe('customerId');
  });
});

describe('GET /receiver/external-account/{accountId}', () => {
  it('takes the account’s currency; 404 for an unknown account', async () => {
    const id = await externalAccount(t, t.emu.fixtures.customerId, 'EUR_ACCOUNT');
    const answer = await t.call('GET', `/receiver/external-account/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.accountId).toBe(id);
    expect(answer.body.supportedCurrencies).toEqual([
      expect.objectContaining({ currency: expect.objectContaining({ code: 'EUR' }), min: 1, max: 400_000 }),
    ]);
    const missing = await t.call(
      'GET',
      '/receiver/external-account/ExternalAccount:00000000-0000-0000-0000-000000000000',
    );
    expect(missing.status).toBe(404);
  });
});
