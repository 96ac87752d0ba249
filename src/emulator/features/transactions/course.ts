/**
 * Runs a transaction's course on the emulator clock. Steps due at the start are applied before the
 * creating request answers; later ones fire on timers (re-armed after a restart by resume()). Each
 * status reached emits its OUTGOING_PAYMENT.* / INCOMING_PAYMENT.* webhook, and every balance it
 * moves emits INTERNAL_ACCOUNT.BALANCE_UPDATED (accounts/ledger.ts).
 *
 * Money: a payout holds the amount from the source's available balance at the start; completion
 * settles the hold (it leaves totalBalance); a failure before completion releases it, unless the
 * refund failed (the spec's 007), and a failure after completion (a returned payment) credits it back.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { LedgerBatch } from '../accounts/ledger.js';
import { customers } from '../customers/customers.js';
import { platformId } from '../platform/platform-id.js';
import { renderTransaction, transactions, type Course, type Money, type TxRec, type TxStatus } from './transactions.js';
import { newId } from '../../kernel/ids.js';

export interface CourseSpec {
  /** An id chosen earlier (a quote names its transaction before execution); else a new one. */
  id?: string;
  type: TxRec['type'];
  direction: TxRec['direction'];
  fields: Record<string, unknown>;
  /** afterMs from now; the last step is final. */
  steps: readonly { status: TxStatus; afterMs: number; failureReason?: string }[];
  hold?: Money;
  credit?: Money;
  refund?: Course['refund'];
  /** The platform decides first (approval.ts): nothing is applied or announced here. */
  askPlatform?: boolean;
}

function eventPrefix(tx: TxRec): string {
  return tx.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT';
}

/** Creates the transaction and applies what is due now; throws (moving nothing) when the hold cannot be taken. */
export function startTransaction(emu: EmulatorContext, spec: CourseSpec): TxRec {
  const batch = new LedgerBatch(emu);
  if (spec.hold) batch.hold(spec.hold.accountId, spec.hold.amount);
  const now = emu.now();
  const reference = `SVC${randomBytes(5).toString('hex').toUpperCase()}`;
  // The description's Transaction names its customer twice: our id and the platform's own. A
  // payment of the platform itself names the platform in both (platform-id.ts).
  const owner =
    typeof spec.fields.customerId === 'string' ? emu.table(customers).get(spec.fields.customerId) : undefined;
  const ownerIds = owner
    ? { platformCustomerId: owner.platformCustomerId }
    : spec.fields.customerId === undefined
      ? { customerId: platformId(emu), platformCustomerId: platformId(emu) }
      : {};
  const tx: TxRec = {
    id: spec.id ?? newId('Transaction'),
    type: spec.type,
    status: 'PENDING',
    direction: spec.direction,
    ...(typeof spec.fields.customerId === 'string' ? { customerId: spec.fields.customerId } : {}),
    fields: {
      ...spec.fields,
      ...ownerIds,
      reconciliationInstructions: { reference },
    },
    createdAt: emu.iso(now),
    updatedAt: emu.iso(now),
    course: {
      steps: spec.steps.map((s) => ({
        status: s.status,
        atMs: now + s.afterMs,
        ...(s.failureReason ? { failureReason: s.failureReason } : {}),
      })),
      next: 0,
      ...(spec.hold ? { hold: spec.hold } : {}),
      ...(spec.credit ? { credit: spec.credit } : {}),
      ...(spec.refund ? { refund: spec.refund } : {}),
      ...(spec.askPlatform ? { approval: { state: 'asking' as const, askedAtMs: now } } : {}),
    },
  };
  emu.table(transactions).set(tx.id, tx);
  if (spec.askPlatform) return tx;
  if (tx.course.steps[0]!.atMs > now) emu.outbox.emit(`${eventPrefix(tx)}.PENDING`, renderTransaction(tx));
  runDue(emu, tx, batch);
  return tx;
}

/** Applies every step that is due, then arms a timer for the next one. */
function runDue(emu: EmulatorContext, tx: TxRec, batch = new LedgerBatch(emu)): void {
  const { course } = tx;
  if (course.approval) return; // the platform has not decided yet
  while (course.next < course.steps.length && course.steps[course.next]!.atMs <= emu.now()) {
    apply(emu, tx, batch);
    course.next += 1;
    batch.commit();
  }
  batch.commit();
  if (course.next < course.steps.length) {
    emu.later(course.steps[course.next]!.atMs - emu.now(), () => {
      const current = emu.table(transactions).get(tx.id);
      try {
        if (current) runDue(emu, current);
      } catch (error) {
        // A timer has no request to answer; a failed step (a credit beyond the safe-integer range) is logged, not thrown.
        emu.log({ kind: 'error', message: `${tx.id}: ${(error as Error).message}` });
      }
    });
  }
}

function apply(emu: EmulatorContext, tx: TxRec, batch: LedgerBatch): void {
  const { course } = tx;
  const step = course.steps[course.next]!;
  const now = emu.iso();
  tx.status = step.status;
  tx.updatedAt = now;
  let refundEvent: string | undefined;
  if (step.status === 'COMPLETED') {
    if (course.hold) batch.settle(course.hold.accountId, course.hold.amount);
    if (course.credit) batch.credit(course.credit.accountId, course.credit.amount);
    course.completed = true;
    tx.settledAt = now;
  } else if (step.status === 'FAILED' || step.status === 'REJECTED') {
    if (step.failureReason) tx.failureReason = step.failureReason;
    if (course.completed) {
      // Returned by the receiving bank: the money comes back to the source.
      if (course.hold) batch.credit(course.hold.accountId, course.hold.amount);
    } else if (course.hold) {
      if (course.refund?.status === 'FAILED') batch.settle(course.hold.accountId, course.hold.amount);
      else batch.release(course.hold.accountId, course.hold.amount);
    }
    if (course.refund) {
      tx.refund = {
        reference: `RF${randomBytes(5).toString('hex').toUpperCase()}`,
        initiatedAt: now,
        ...(course.refund.status === 'COMPLETED' ? { settledAt: now } : {}),
        status: course.refund.status,
        ...(course.refund.reason ? { reason: course.refund.reason } : {}),
      };
      refundEvent = `${eventPrefix(tx)}.REFUND_${course.refund.status}`;
    }
  }
  emu.changed();
  // The description's payment events end in COMPLETED or FAILED: a rejection is announced as FAILED.
  const event = step.status === 'REJECTED' ? 'FAILED' : step.status;
  emu.outbox.emit(`${eventPrefix(tx)}.${event}`, renderTransaction(tx));
  if (refundEvent) emu.outbox.emit(refundEvent, renderTransaction(tx));
}

/** After a restart: re-arm the timers of transactions still on their way (not those the platform holds). */
export function resumeTransactions(emu: EmulatorContext): void {
  for (const tx of emu.table(transactions).values()) {
    if (tx.course && tx.course.next < tx.course.steps.length) runDue(emu, tx);
  }
}

/** The platform approved: the course starts now, its steps as far apart as planned. */
export function approveCourse(emu: EmulatorContext, tx: TxRec): void {
  const { course } = tx;
  const shift = emu.now() - course.approval!.askedAtMs;
  delete course.approval;
  course.steps = course.steps.map((s, i) => (i < course.next ? s : { ...s, atMs: s.atMs + shift }));
  runDue(emu, tx);
}

/** The platform rejected it (REJECTED) or it could not be asked or did not answer (FAILED with the reason). */
export function declineCourse(
  emu: EmulatorContext,
  tx: TxRec,
  status: 'REJECTED' | 'FAILED',
  failureReason?: string,
): void {
  const { course } = tx;
  delete course.approval;
  course.steps = [
    ...course.steps.slice(0, course.next),
    { status, atMs: emu.now(), ...(failureReason ? { failureReason } : {}) },
  ];
  runDue(emu, tx);
}

/**
 * Stops a transaction still on its way: it fails now (no later step runs); held money goes back
 * to its account as a completed refund for USER_CANCELLATION, nothing is credited.
 */
export function cancelCourse(emu: EmulatorContext, tx: TxRec): void {
  const { course } = tx;
  course.steps = [...course.steps.slice(0, course.next), { status: 'FAILED', atMs: emu.now() }];
  if (course.hold) course.refund = { status: 'COMPLETED', reason: 'USER_CANCELLATION' };
  runDue(emu, tx);
}
