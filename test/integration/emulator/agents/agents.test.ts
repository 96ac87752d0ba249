/**
 * Agents over HTTP: the platform creates one (with a device code), the agent redeems the code once
 * for an access token, and `Authorization: Bearer` then works on every endpoint, bound to the
 * agent's customer: another customer's resources are 404 to it and lists hold only its own.
 */
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWallet, type Wallet } from '../auth/support.js';
import { errorShape, testEmulator, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator();

const policy = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null },
};
const createAgent = (customerId: string, name = 'Budget bot') =>
  t.call('POST', '/agents', { body: { name, customerId, policy } });
const redeem = (code: string) => t.call('POST', `/agents/device-codes/${code}/redeem`, { auth: false });

describe('device codes', () => {
  it('create → status → redeem once (no Authorization) → connected', async () => {
    const wallet = await newWallet(t);
    const made = await createAgent(wallet.customerId);
    expect(made.status).toBe(201);
    expect(made.body.agent).toMatchObject({
      id: expect.stringMatching(/^Agent:/),
      name: 'Budget bot',
      customerId: wallet.customerId,
      isConnected: false,
      isPaused: false,
      policy,
    });
    const code = made.body.deviceCode;
    expect(code).toMatchObject({
      code: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/),
      agentId: made.body.agent.id,
      redeemed: false,
      expiresAt: expect.any(String),
    });
    expect((await t.call('GET', `/agents/device-codes/${code.code}/status`)).body).toEqual({
      code: code.code,
      redeemed: false,
    });

    const redeemed = await redeem(code.code);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toEqual({
      agentId: made.body.agent.id,
      agentName: 'Budget bot',
      accessToken: expect.stringMatching(/^agt_/),
      policy,
    });
    expect((await t.call('GET', `/agents/device-codes/${code.code}/status`)).body.redeemed).toBe(true);
    expect((await t.call('GET', `/agents/${made.body.agent.id}`)).body.isConnected).toBe(true);

    expect(errorShape(await redeem(code.code))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/already redeemed/),
    });
    // A connected agent gets no new code.
    expect(errorShape(await t.call('POST', `/agents/${made.body.agent.id}/device-codes`))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
  });

  it('a code expires after 10 minutes of emulator time; a new code replaces the old one', async () => {
    const made = await createAgent((await newWallet(t)).customerId);
    t.emu.testing.advanceClock(10 * 60 * 1000 + 1);
    expect(errorShape(await redeem(made.body.deviceCode.code))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/expired/),
    });
    const fresh = await t.call('POST', `/agents/${made.body.agent.id}/device-codes`);
    expect(fresh.status).toBe(201);
    const newer = await t.call('POST', `/agents/${made.body.agent.id}/device-codes`);
    expect(errorShape(await redeem(fresh.body.code))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/replaced/),
    });
    expect((await redeem(newer.body.code)).status).toBe(200);
  });

  it('the request log never shows a device code', async () => {
    const lines: string[] = [];
    const logged = await testEmulator({ log: (e) => lines.push(JSON.stringify(e)) });
    try {
      const made = await logged.call('POST', '/agents', {
        body: { name: 'Logged', customerId: logged.emu.fixtures.customerId, policy },
      });
      const code = made.body.deviceCode.code as string;
      expect((await logged.call('GET', `/agents/device-codes/${code}/status`)).status).toBe(200);
      expect((await logged.call('POST', `/agents/device-codes/${code}/redeem`, { auth: false })).status).toBe(200);
      expect(lines.some((l) => l.includes('/agents/device-codes/{code}/redeem'))).toBe(true);
      expect(lines.filter((l) => l.includes(code))).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('404 for an unknown code; 400 listing every bad field of POST /agents; 400 naming customerId for an unknown customer', async () => {
    expect(errorShape(await redeem('ZZZZ-ZZZZ'))).toMatchObject({ status: 404 });
    expect(errorShape(await t.call('GET', '/agents/device-codes/ZZZZ-ZZZZ/status'))).toMatchObject({ status: 404 });
    const bad = await t.call('POST', '/agents', {
      body: { customerId: 'nope', policy: { permissions: ['FLY'], spendingLimits: {} } },
    });
    expect(errorShape(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'name',
      'policy.defaultExecutionMode',
      'policy.permissions[0]',
      'policy.spendingLimits.currency',
      'policy.spendingLimits.perTransactionLimit',
    ]);
    // A currency the description does not name cannot hold a limit: there is no rate to convert it at.
    const wallet = await newWallet(t);
    const xyz = await t.call('POST', '/agents', {
      body: {
        name: 'Budget bot',
        customerId: wallet.customerId,
        policy: { ...policy, spendingLimits: { ...policy.spendingLimits, currency: 'XYZ' } },
      },
    });
    expect(xyz.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['policy.spendingLimits.currency']);
    // POST /agents declares no 404.
    const unknown = await createAgent('Customer:00000000-0000-4000-8000-000000000000');
    expect(errorShape(unknown)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(unknown.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['customerId']);
  });
});

describe('Bearer access, bound to the agent customer', () => {
  let wallet: Wallet;
  let bearer: string;
  let agentId: string;
  beforeAll(async () => {
    wallet = await newWallet(t);
    await t.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: wallet.accountId } });
    const made = await createAgent(wallet.customerId);
    agentId = made.body.agent.id;
    bearer = `Bearer ${(await redeem(made.body.deviceCode.code)).body.accessToken}`;
  });
  const asAgent = (method: string, path: string, body?: object) =>
    t.call(method, path, { auth: bearer, ...(body ? { body } : {}) });
  const fixtures = () => t.emu.fixtures;

  it('GET /agents/me answers the agent; with Basic there is no agent (401); an unknown token is 401', async () => {
    expect((await asAgent('GET', '/agents/me')).body).toMatchObject({
      id: agentId,
      customerId: wallet.customerId,
      isConnected: true,
    });
    expect(errorShape(await t.call('GET', '/agents/me'))).toMatchObject({
      status: 401,
      reason: expect.stringMatching(/Bearer/),
    });
    expect(errorShape(await t.call('GET', '/agents/me', { auth: 'Bearer agt_unknown' }))).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    const accounts = await asAgent('GET', '/agents/me/internal-accounts');
    expect(accounts.body.data.map((a: { customerId: string }) => a.customerId)).toEqual([
      wallet.customerId,
      wallet.customerId,
    ]);
  });

  it.each([
    ['GET', () => `/customers/${wallet.customerId}`, () => `/customers/${fixtures().customerId}`, 'USER_NOT_FOUND'],
    [
      'GET',
      () => `/internal-accounts/${wallet.accountId}`,
      () => `/internal-accounts/${fixtures().accountId}`,
      'REFERENCE_NOT_FOUND',
    ],
    [
      'GET',
      () => `/auth/credentials?accountId=${wallet.accountId}`,
      () => `/auth/credentials?accountId=${fixtures().accountId}`,
      'REFERENCE_NOT_FOUND',
    ],
    [
      'GET',
      () => `/auth/sessions?accountId=${wallet.accountId}`,
      () => `/auth/sessions?accountId=${fixtures().accountId}`,
      'REFERENCE_NOT_FOUND',
    ],
    [
      'GET',
      () => `/internal-accounts?customerId=${wallet.customerId}`,
      () => `/internal-accounts?customerId=${fixtures().customerId}`,
      'USER_NOT_FOUND',
    ],
  ] as Array<[string, () => string, () => string, string]>)(
    "%s own resource 200, another customer's 404 (%#)",
    async (method, own, other, code) => {
      const mine = await asAgent(method, own());
      expect(mine.status, mine.text).toBe(200);
      expect(errorShape(await asAgent(method, other()))).toMatchObject({ status: 404, code });
      // The platform (Basic) still sees both.
      expect((await t.call(method, other())).status).toBe(200);
    },
  );

  it("another customer's card and session are 404; a signed revoke of another's session never starts", async () => {
    expect(errorShape(await asAgent('GET', `/cards/${fixtures().cardId}`))).toMatchObject({ status: 404 });
    expect(errorShape(await asAgent('DELETE', `/auth/sessions/${login.sessionId}`))).toMatchObject({ status: 404 });
  });

  it("writes are bound too: funding another customer's account is 404 and changes nothing", async () => {
    const before = (await t.call('GET', `/internal-accounts/${fixtures().accountId}`)).body.balance.amount;
    expect(
      errorShape(await asAgent('POST', `/sandbox/internal-accounts/${fixtures().accountId}/fund`, { amount: 500 })),
    ).toMatchObject({ status: 404 });
    expect((await t.call('GET', `/internal-accounts/${fixtures().accountId}`)).body.balance.amount).toBe(before);
    expect(
      (await asAgent('POST', `/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 500 })).body.balance
        .amount,
    ).toBe(500);
    // An id nested in a body (a quote's source account) is checked too, before the handler reads it.
    expect(
      errorShape(
        await asAgent('POST', '/quotes', {
          source: { sourceType: 'ACCOUNT', accountId: fixtures().accountId },
          destination: { destinationType: 'ACCOUNT', accountId: fixtures().accountId },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 100,
        }),
      ),
    ).toMatchObject({ status: 404 });
    // A body that names another customer is refused as well.
    expect(
      errorShape(await asAgent('POST', '/agents', { name: 'x', customerId: fixtures().customerId, policy })),
    ).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
  });

  it("identity areas are bound too: another customer's verification is 404, the customer list is the agent's own", async () => {
    expect(errorShape(await asAgent('POST', '/verifications', { customerId: fixtures().customerId }))).toMatchObject({
      status: 404,
      code: 'USER_NOT_FOUND',
    });
    const customers = await asAgent('GET', '/customers');
    expect(customers.status).toBe(200);
    expect(customers.body.data.map((c: { id: string }) => c.id)).toEqual([wallet.customerId]);
    expect((await t.call('GET', '/customers')).body.data.length).toBeGreaterThan(1);
  });

  it("money areas are bound too: another customer's transaction is 404 and absent from the list", async () => {
    const tx = await t.call('POST', '/sandbox/uma/receive', {
      body: {
        senderUmaAddress: '$success.usd@sender.example',
        receiverUmaAddress: fixtures().umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1000,
      },
    });
    expect(tx.status, tx.text).toBe(200);
    expect((await t.call('GET', `/transactions/${tx.body.id}`)).status).toBe(200);
    expect(errorShape(await asAgent('GET', `/transactions/${tx.body.id}`))).toMatchObject({ status: 404 });
    const list = await asAgent('GET', '/transactions');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(tx.body.id);
  });

  it("lists hold only the agent customer's items", async () => {
    const agents = await asAgent('GET', '/agents');
    expect(agents.body.data.map((a: { customerId: string }) => a.customerId)).toEqual([wallet.customerId]);
    expect((await t.call('GET', '/agents')).body.data.length).toBeGreaterThan(1);
  });

  it('emulator-only endpoints (the clock) take HTTP Basic only: an agent cannot move time', async () => {
    const res = await request(`${new URL(t.emu.baseUrl).origin}/_emulator/clock`, {
      headers: { authorization: bearer },
    });
    const body = (await res.body.json()) as { code: string; reason: string };
    expect(res.statusCode).toBe(401);
    expect(body).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringMatching(/Basic credentials only/) });
  });

  it('the refresh endpoint stays HTTP Basic only, even for a valid agent token', async () => {
    const answer = await asAgent('POST', `/auth/sessions/${login.sessionId}/refresh`, {
      clientPublicKey: login.publicKey,
    });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/Basic credentials only/),
    });
  });
});
