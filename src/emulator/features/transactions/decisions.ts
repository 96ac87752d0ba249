/**
 * POST /transactions/{id}/cancel, /approve and /reject (the description's cancelTransaction,
 * approvePendingPayment, rejectPendingPayment).
 * - Cancel: only a payment by bank (ACH or wire: a USD bank account at one end, on no other named
 *   rail) that has not settled; it fails at once and held money returns (refund USER_CANCELLATION).
 *   Any other kind is 400; a settled or failed one 409 TRANSACTION_NOT_CANCELLABLE.
 * - Approve/reject: for an incoming payment waiting for the platform (approval.ts): approve runs
 *   its course (200 IncomingTransaction, COMPLETED when it settles at once), reject makes it
 *   REJECTED, nothing credited. Any other transaction, or one decided, answered or timed out, is 409
 *   TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL. A call that arrives before the webhook's 202 does
 *   counts too (the platform may call as it answers).
 */
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Req, Route } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { externalAccounts } from '../external-accounts/records.js';
import { awaitsPlatform } from './approval.js';
import { approveCourse, cancelCourse, declineCourse } from './course.js';
import { renderTransaction, requireTransaction, type TxRec } from './transactions.js';

const BANK_RAILS = new Set(['ACH', 'WIRE']);

function visible(req: Req, emu: EmulatorContext): TxRec {
  const tx = requireTransaction(emu, req.params.id!);
  if (!callerMaySee(req, tx.customerId)) throw notFound('Transaction', tx.id, 'TRANSACTION_NOT_FOUND');
  return tx;
}

function byBank(emu: EmulatorContext, tx: TxRec): boolean {
  const rail = tx.fields.paymentRail;
  if (typeof rail === 'string' && !BANK_RAILS.has(rail)) return false;
  return (['source', 'destination'] as const).some((side) => {
    const id = (tx.fields[side] as { accountId?: unknown } | undefined)?.accountId;
    return typeof id === 'string' && emu.table(externalAccounts).get(id)?.accountInfo.accountType === 'USD_ACCOUNT';
  });
}

/**
 * The optional `reason` of cancel and reject: its type is the schema check's; its length is the
 * emulator's (nothing a client sends is read unbounded).
 */
function readReason(req: Req): void {
  const f = new Fields(req.raw.length > 0 ? req.json() : {});
  f.string('reason', { maxLength: 1000 });
  f.done();
}

function platformDecision(verb: 'approve' | 'reject'): Route {
  return {
    method: 'POST',
    path: `/transactions/:id/${verb}`,
    permission: 'TRANSACT',
    handler(req, emu) {
      // Approve's optional receiverCustomerInfo is an object, the schema check's; the emulator keeps nothing of it.
      if (verb === 'reject') readReason(req);
      const tx = visible(req, emu);
      if (!awaitsPlatform(tx)) {
        const why = tx.failureReason === 'PAYMENT_APPROVAL_TIMED_OUT' ? ' (its 5 s to decide ran out)' : '';
        throw new HttpError(
          409,
          'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
          `${tx.id} (${tx.type}, ${tx.status}) is not waiting for the platform's approval${why}`,
        );
      }
      if (verb === 'approve') approveCourse(emu, tx);
      else declineCourse(emu, tx, 'REJECTED');
      return { status: 200, body: renderTransaction(tx) };
    },
  };
}

export const decisionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/transactions/:id/cancel',
    permission: 'TRANSACT',
    handler(req, emu) {
      readReason(req);
      const tx = visible(req, emu);
      if (!byBank(emu, tx))
        throw badRequest('INVALID_INPUT', `${tx.id} is not an ACH or wire payment: only those can be cancelled`, {
          errors: [{ field: 'transactionId', message: 'not an ACH or wire payment' }],
        });
      if (tx.status === 'COMPLETED' || tx.status === 'FAILED' || tx.status === 'REJECTED') {
        throw new HttpError(409, 'TRANSACTION_NOT_CANCELLABLE', `${tx.id} is ${tx.status}: too late to cancel`);
      }
      cancelCourse(emu, tx);
      return { status: 200, body: renderTransaction(tx) };
    },
  },
  platformDecision('approve'),
  platformDecision('reject'),
];
