/**
 * `svc trigger` on the integrator's own resources: --customer and --account are used,
 * reported as reused, and checked with a read before anything is created; --set values reach the
 * request. A recording proxy shows that a refused run created nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type TriggerOptions } from '../../../commands/trigger/run.js';
import { RejectedInputError, UsageError } from '../../../src/errors.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { rejected } from '../../helpers/caught.js';
import { authEnv, type AuthEnv } from '../auth/support.js';
import { login } from '../auth/login.js';
import { creatingRequests, triggerOptions as opts, triggerReport } from './helpers.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv({ timeScale: 20 })));
afterAll(() => t.close());

const trigger = (o: Partial<TriggerOptions>) => triggerReport(t, o);

describe('svc trigger on your resources', () => {
  it('--customer: the card is issued to your customer, which is reported as reused', async () => {
    const mine = await trigger({ scenario: 'kyc.approved' });
    const report = await trigger({ scenario: 'card.closed', customer: mine.resources.customerId, wait: true });
    expect(report.resources.customerId).toBe(mine.resources.customerId);
    expect(report.reused).toEqual(['customerId']);
    expect(report.observed).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
    const card = await t
      .deps()
      .client()
      .then((c) => c.request<{ cardholderId: string }>({ method: 'GET', path: `/cards/${report.resources.cardId}` }));
    expect(card.body.cardholderId).toBe(mine.resources.customerId);
  });

  it('--account: real-time funding pays into your account (its owner is the customer)', async () => {
    const mine = await trigger({ scenario: 'quote.realtime-funding' });
    const report = await trigger({
      scenario: 'quote.realtime-funding',
      account: mine.resources.accountId,
      set: ['quote.lockedCurrencyAmount=2500'],
    });
    expect(report.reused.sort()).toEqual(['accountId', 'customerId']);
    expect(report.resources.accountId).toBe(mine.resources.accountId);
    const quote = await t
      .deps()
      .client()
      .then((c) =>
        c.request<{ destination: { accountId: string }; totalSendingAmount: number }>({
          method: 'GET',
          path: `/quotes/${report.resources.quoteId}`,
        }),
      );
    expect(quote.body.destination.accountId).toBe(mine.resources.accountId);
    expect(quote.body.totalSendingAmount).toBe(2500);
  });

  it('--set reaches the request and becomes the reported magic value', async () => {
    const report = await trigger({
      scenario: 'kyc.rejected',
      set: ['customer.fullName=Jane Roe 002', 'customer.nationality=GB'],
    });
    expect(report.magic.value).toBe('Jane Roe 002');
    expect(report.observed.kycStatus).toBe('REJECTED');
    const customer = await t
      .deps()
      .client()
      .then((c) =>
        c.request<{ fullName: string; nationality: string }>({
          method: 'GET',
          path: `/customers/${report.resources.customerId}`,
        }),
      );
    expect(customer.body).toMatchObject({ fullName: 'Jane Roe 002', nationality: 'GB' });
  });

  it("your resource is read first: unknown, not approved, or not the customer's is refused (exit 1: it was read) and nothing is created", async () => {
    const pending = await trigger({ scenario: 'kyc.pending' });
    const other = await trigger({ scenario: 'quote.realtime-funding' });
    const before = creatingRequests(t);
    const cases: [Partial<TriggerOptions>, string, RegExp][] = [
      [{ customer: 'Customer:00000000-0000-4000-8000-000000000000' }, 'customer', /does not exist/],
      [{ customer: pending.resources.customerId }, 'customer', /kycStatus PENDING; this scenario needs an APPROVED/],
      [
        { customer: pending.resources.customerId, account: other.resources.accountId },
        'account',
        /belongs to Customer:.*, not to the customer given, Customer:/,
      ],
    ];
    for (const [o, field, message] of cases) {
      const error = await rejected(run(opts({ scenario: 'card.frozen', ...o }), t.deps()), RejectedInputError);
      expect(exitCodeFor(error)).toBe(1);
      expect(error.input).toBe(field);
      expect(error.message).toMatch(message);
    }
    expect(creatingRequests(t)).toBe(before);
  });

  it('a refused option sends nothing at all', async () => {
    const before = t.proxy.seen.length;
    const error = await rejected(
      run(opts({ scenario: 'kyc.pending', customer: 'Customer:00000000-0000-4000-8000-000000000000' }), t.deps()),
      UsageError,
    );
    expect(error).toMatchObject({ input: 'customer', reason: 'NOT_REUSABLE' });
    expect(t.proxy.seen.length).toBe(before);
  });

  it("auth.*: --credential is needed before any request, and the active session's credential is the default", async () => {
    const before = t.proxy.seen.length;
    const error = await rejected(run(opts({ scenario: 'auth.otp-code' }), t.deps()), UsageError);
    expect(error).toMatchObject({ input: 'credential', reason: 'CREDENTIAL_REQUIRED' });
    expect(t.proxy.seen.length).toBe(before);

    const explicit = await trigger({ scenario: 'auth.otp-code', credential: t.emu.fixtures.credentialId });
    expect(explicit.reused).toEqual(['credentialId']);
    expect(explicit.observed).toMatchObject({ httpStatus: 200, sessionType: 'EMAIL_OTP', revokedAfter: true });

    await login(t);
    const report = await trigger({ scenario: 'auth.otp-wrong-code' });
    expect(report.resources.credentialId).toBe(t.emu.fixtures.credentialId);
    expect(report.observed).toMatchObject({ httpStatus: 401, code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
  });
});
