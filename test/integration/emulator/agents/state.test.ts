import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountBalances, externalAccount, fund, newCustomer } from '../money/support.js';
import { connectAgent, testEmulator } from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

describe('restart with --state (agents)', () => {
  it('keeps the pending action, the token and the usage; the action is approved after the restart', async () => {
    const statePath = join(tempDir('svc-emu-agents-'), 'state.json');
    const first = await testEmulator({ statePath });
    const c = await newCustomer(first);
    await fund(first, c.usd, 10_000);
    const bank = await externalAccount(first, c.id, 'USD_ACCOUNT');
    const policy = {
      permissions: ['CREATE_TRANSFERS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 5_000 },
      approvalThresholds: { currency: 'USD', amount: 1_000 },
    };
    const { agentId, bearer } = await connectAgent(first, c.id, policy, 'Durable bot');
    const send = (t: typeof first, amount: number) =>
      t.call('POST', '/agents/me/transfer-out', {
        auth: bearer,
        body: { source: { accountId: c.usd }, destination: { accountId: bank }, amount },
      });
    expect((await send(first, 500)).status).toBe(201);
    const pending = await send(first, 2_000);
    expect(pending.body.status).toBe('PENDING_APPROVAL');
    await first.close();

    const second = await testEmulator({ statePath });
    try {
      expect((await second.call('GET', '/agents/me', { auth: bearer })).body.usage).toMatchObject({
        dailySpend: 500,
        dailyTransactionCount: 1,
      });
      expect((await second.call('GET', `/agents/me/actions/${pending.body.id}`, { auth: bearer })).body.status).toBe(
        'PENDING_APPROVAL',
      );
      const approved = await second.call('POST', `/agents/${agentId}/actions/${pending.body.id}/approve`);
      expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { sentAmount: { amount: 2_000 } } });
      expect((await accountBalances(second, c.usd)).balance).toBe(7_500);
    } finally {
      await second.close();
    }
  });
});
