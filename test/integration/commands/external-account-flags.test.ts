/**
 * `svc accounts external create` for the account types an integrator tries first abroad: the
 * request its flags build (BRL by PIX, INR by UPI, NGN by bank, a Spark wallet in BTC) is taken by
 * the emulator as sent, and an account type the service does not list is refused before sending,
 * naming --account-type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest } from '../../../commands/resources/request.js';
import { OPERATIONS } from '../../../commands/resources/table.js';
import { UsageError } from '../../../src/errors.js';
import { testEmulator, type TestEmulator } from '../emulator/support.js';

const create = OPERATIONS.find((o) => o.noun === 'accounts' && o.group === 'external' && o.verb === 'create')!;
const holder = { beneficiaryType: 'INDIVIDUAL', beneficiaryName: 'Ada Lovelace' };

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

describe('accounts external create', () => {
  it.each([
    ['BRL', 'BRL_ACCOUNT', { pixKey: 'ada000@pix.example.com', pixKeyType: 'EMAIL', taxId: '12345678000', ...holder }],
    ['INR', 'INR_ACCOUNT', { upiId: 'ada000@upi', ...holder }],
    ['NGN', 'NGN_ACCOUNT', { accountNumber: '0123456000', bankName: 'Access Bank', ...holder }],
    ['BTC', 'SPARK_WALLET', { address: 'spark1svcsandboxwallet000' }],
  ])('%s %s: the flags make a request the service takes', async (currency, accountType, flags) => {
    const request = buildRequest(create, { customerId: t.emu.fixtures.customerId, currency, accountType, ...flags });
    const answer = await t.call('POST', '/customers/external-accounts', { body: JSON.parse(request.body!) });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ currency, accountInfo: { accountType } });
  });

  it('an account type the service does not list is refused before sending, naming --account-type', () => {
    expect(() =>
      buildRequest(create, { customerId: t.emu.fixtures.customerId, currency: 'BRL', accountType: 'PIX_ACCOUNT' }),
    ).toThrow(expect.objectContaining({ input: '--account-type' }));
    expect(() =>
      buildRequest(create, { customerId: t.emu.fixtures.customerId, currency: 'BRL', accountType: 'PIX_ACCOUNT' }),
    ).toThrow(UsageError);
  });
});
