/**
 * The platform's approval of an incoming payment (the description's incoming-payment webhook): a
 * payment on an approval rail (UMA) is PENDING until the platform answers its
 * `INCOMING_PAYMENT.PENDING` webhook. 2xx approves (409 too: the platform already had it), 403
 * rejects (REJECTED), 422 fails it for missing payee data, and 202 hands the decision to
 * `POST /transactions/{id}/approve|reject`, due within 5 s of emulator time or it is rejected
 * (FAILED, PAYMENT_APPROVAL_TIMED_OUT). Any other answer, or none, fails it
 * (PAYMENT_APPROVAL_WEBHOOK_ERROR). With no webhook endpoint there is no one to ask: it goes on at once.
 */
import { PLATFORM_APPROVAL_WINDOW_MS } from '../../../service/payment-enums.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { DeliveryResult } from '../../kernel/outbox.js';
import { approveCourse, declineCourse, startTransaction, type CourseSpec } from './course.js';
import { renderTransaction, transactions, type TxRec } from './transactions.js';

/** The platform's refusals (403 reject, 422 more information) are answers: the webhook is not sent again. */
const DECISIONS = [403, 422];

/** Starts an incoming payment that asks the platform first; resolves once the platform's first answer is in. */
export async function startWithApproval(emu: EmulatorContext, spec: CourseSpec): Promise<TxRec> {
  if (!emu.core.config.webhookEndpoint) return startTransaction(emu, spec);
  const tx = startTransaction(emu, { ...spec, askPlatform: true });
  const answer = await emu.outbox.ask('INCOMING_PAYMENT.PENDING', renderTransaction(tx), DECISIONS);
  const current = emu.table(transactions).get(tx.id)!;
  // The platform may have called approve or reject before its answer reached us: that decision stands.
  if (current.course.approval?.state === 'asking') decide(emu, current, answer);
  return current;
}

function decide(emu: EmulatorContext, tx: TxRec, answer: DeliveryResult | undefined): void {
  const status = answer?.status;
  if (status === 202) return wait(emu, tx, emu.now() + PLATFORM_APPROVAL_WINDOW_MS);
  if (answer === undefined || (status !== undefined && ((status >= 200 && status < 300) || status === 409)))
    return approveCourse(emu, tx);
  if (status === 403) return declineCourse(emu, tx, 'REJECTED');
  if (status === 422) return declineCourse(emu, tx, 'FAILED', 'MISSING_MANDATORY_PAYEE_DATA');
  declineCourse(emu, tx, 'FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR');
}

function wait(emu: EmulatorContext, tx: TxRec, deadlineMs: number): void {
  tx.course.approval = { ...tx.course.approval!, state: 'waiting', deadlineMs };
  emu.changed();
  emu.later(Math.max(0, deadlineMs - emu.now()), () => {
    const current = emu.table(transactions).get(tx.id);
    if (current?.course.approval?.deadlineMs === deadlineMs)
      declineCourse(emu, current, 'FAILED', 'PAYMENT_APPROVAL_TIMED_OUT');
  });
}

/** Whether approve/reject may decide it now: its webhook went out and no decision was made yet. */
export function awaitsPlatform(tx: TxRec): boolean {
  return tx.course.approval !== undefined;
}

/**
 * After a restart: the answer to a webhook in flight is lost, so such a payment waits for the
 * platform's call as if it had answered 202; a waiting one keeps its deadline.
 */
export function resumeApprovals(emu: EmulatorContext): void {
  for (const tx of emu.table(transactions).values()) {
    const approval = tx.course?.approval;
    if (approval) wait(emu, tx, approval.deadlineMs ?? emu.now() + PLATFORM_APPROVAL_WINDOW_MS);
  }
}
