/**
 * `svc trigger` payouts on the integrator's own external account: used when its number
 * ends in the scenario's digits, refused (exit 2, nothing created) when it would pick another row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type TriggerOptions } from '../../../commands/trigger/run.js';
import { RejectedInputError } from '../../../src/errors.js';
import { rejected } from '../../helpers/caught.js';
import { authEnv, type AuthEnv } from '../auth/support.js';
import { creatingRequests, triggerOptions as opts, triggerReport } from './helpers.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv()));
afterAll(() => t.close());

const trigger = (o: Partial<TriggerOptions>) => triggerReport(t, o);

describe('svc trigger on your external account', () => {
  it('--external-account ending in 004 runs transfer.bank-rejected on it and its owner', async () => {
    const mine = await trigger({ scenario: 'transfer.bank-rejected' });
    const report = await trigger({
      scenario: 'transfer.bank-rejected',
      externalAccount: mine.resources.externalAccountId,
    });
    expect(report.reused.sort()).toEqual(['customerId', 'externalAccountId']);
    expect(report.resources.customerId).toBe(mine.resources.customerId);
    expect(report.observed).toMatchObject({ status: 'FAILED', failureReason: 'COUNTERPARTY_POST_TX_FAILED' });
  });

  it('an account whose number selects another row is refused before anything is created', async () => {
    const mine = await trigger({ scenario: 'transfer.success' });
    const before = creatingRequests(t);
    const error = await rejected(
      run(opts({ scenario: 'quote.failed', externalAccount: mine.resources.externalAccountId }), t.deps()),
      RejectedInputError,
    );
    expect(error).toMatchObject({ input: 'externalAccount', reason: 'WRONG_MAGIC' });
    expect(error.message).toContain('another row of Quote execution');
    expect(creatingRequests(t)).toBe(before);
  });

  it('a BRL PIX account runs quote.* by its PIX key: the quote pays out reais', async () => {
    const mine = await trigger({ scenario: 'quote.success' });
    const client = await t.deps().client();
    const pix = await client.request<{ id: string }>({
      method: 'POST',
      path: '/customers/external-accounts',
      body: {
        customerId: mine.resources.customerId,
        currency: 'BRL',
        accountInfo: {
          accountType: 'BRL_ACCOUNT',
          pixKey: 'bea004@pix.example.com',
          pixKeyType: 'EMAIL',
          taxId: '12345678000',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bea Beneficiary' },
        },
      },
    });
    const report = await trigger({ scenario: 'quote.delivery-failed', externalAccount: pix.body.id });
    expect(report.reused.sort()).toEqual(['customerId', 'externalAccountId']);
    expect(report.observed).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
    const quote = await client.request<{ receivingCurrency: { code: string } }>({
      method: 'GET',
      path: `/quotes/${report.resources.quoteId}`,
    });
    expect(quote.body.receivingCurrency.code).toBe('BRL');
    const refused = await rejected(
      run(opts({ scenario: 'transfer.success', externalAccount: pix.body.id }), t.deps()),
      RejectedInputError,
    );
    expect(refused.message).toContain('holds BRL');
  });

  it('--set on the payout amount reaches the transfer', async () => {
    const report = await trigger({ scenario: 'transfer.success', set: ['transfer.amount=777'] });
    const tx = await t
      .deps()
      .client()
      .then((c) =>
        c.request<{ sentAmount?: { amount: number }; amount?: unknown }>({
          method: 'GET',
          path: `/transactions/${report.resources.transactionId}`,
        }),
      );
    expect(JSON.stringify(tx.body)).toContain('777');
  });
});
