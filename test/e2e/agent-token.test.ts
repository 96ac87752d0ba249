/**
 * An agent's access token in SERVICE_ACCESS_TOKEN, used by a spawned svc against the emulator:
 * its own customer's account works through the commands, another customer's is 404 (exit 1).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emu: RunningEmulator;
let token: string;
let ownAccount: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const basic = `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`;
  const call = async (method: 'GET' | 'POST', path: string, body?: object) => {
    const res = await request(emu.baseUrl + path, {
      method,
      headers: { authorization: basic, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.body.json()) as any;
  };
  const customer = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Agent Owner',
    email: 'owner@example.test',
  });
  ownAccount = (await call('GET', `/internal-accounts?customerId=${customer.id}`)).data[0].id;
  const made = await call('POST', '/agents', {
    name: 'e2e agent',
    customerId: customer.id,
    policy: {
      permissions: ['VIEW_TRANSACTIONS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 100 },
    },
  });
  const redeemed = await request(`${emu.baseUrl}/agents/device-codes/${made.deviceCode.code}/redeem`, {
    method: 'POST',
  });
  token = ((await redeemed.body.json()) as { accessToken: string }).accessToken;
});
afterAll(() => emu.close());

const svc = (args: string[]) =>
  runSvc(args, { env: { SERVICE_BASE_URL: emu.baseUrl, SERVICE_ACCESS_TOKEN: token }, configDir: tempConfigDir() });

describe('svc with an agent access token (spawned)', () => {
  it("works on the agent customer's account", async () => {
    const fund = await svc(['--json', 'sandbox', 'fund', ownAccount, '--amount', '2500']);
    expect(fund.code, fund.stderr).toBe(0);
    expect(JSON.parse(fund.stdout).balance.amount).toBe(2500);
    const list = await svc(['--json', 'credentials', 'list', '--account', ownAccount]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ data: [] });
  });

  it("another customer's account is 404 to it (exit 1)", async () => {
    const r = await svc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '2500']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/404|not found/i);
  });
});
