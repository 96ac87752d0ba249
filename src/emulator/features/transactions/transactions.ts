/**
 * Transactions: what quotes, transfers and sandbox payments make. A record keeps its rendered
 * fields and, apart, its course: the statuses it will pass through on the emulator clock and the
 * money it holds, settles or credits on the way (course.ts runs it).
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';

export type TxStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'REJECTED';

interface Step {
  status: TxStatus;
  atMs: number;
  failureReason?: string;
}

export interface Money {
  accountId: string;
  amount: number;
}

interface Refund {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason?: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
}

export interface Course {
  steps: Step[];
  /** Index of the next step to apply. */
  next: number;
  /** Taken from an internal account's available balance at the start; settled on completion, released on failure. */
  hold?: Money;
  /** Credited to an internal account on completion. */
  credit?: Money;
  /** What happens to the held money after a failure (006 user cancellation, 007 refund failed). */
  refund?: { status: 'COMPLETED' | 'FAILED'; reason?: Refund['reason'] };
  completed?: boolean;
  /**
   * An incoming payment waiting for the platform (approval.ts): `asking` while its PENDING webhook
   * is on its way, `waiting` after a 202 until `deadlineMs`. No step runs meanwhile.
   */
  approval?: { state: 'asking' | 'waiting'; askedAtMs: number; deadlineMs?: number };
}

export interface TxRec {
  id: string;
  type: 'INCOMING' | 'OUTGOING';
  status: TxStatus;
  direction: 'CREDIT' | 'DEBIT';
  /** The customer it belongs to (also in fields): the kernel's agent scope reads a record's owner here. */
  customerId?: string;
  /** Rendered as is: customerId, source, destination, sentAmount, receivedAmount, quoteId, … */
  fields: Record<string, unknown>;
  failureReason?: string;
  refund?: Refund;
  settledAt?: string;
  createdAt: string;
  updatedAt: string;
  course: Course;
}

export const transactions = durableTable<TxRec>(
  'transactions',
  {
    id: 'string',
    type: 'string',
    status: 'string',
    direction: 'string',
    customerId: 'string?',
    fields: 'object',
    failureReason: 'string?',
    refund: 'object?',
    settledAt: 'string?',
    createdAt: 'string',
    updatedAt: 'string',
    course: 'object',
  },
  // A transaction of an earlier state file (its rendered body, no course), rewritten by migrate.ts.
  (record) => record.course === undefined && record.fields === undefined,
);
/** What an agent spent (its policy's daily and monthly limits add these up on every payment). */
export const byAgent = tableIndex<TxRec>((t) => t.fields.agentId as string | undefined);

export function renderTransaction(tx: TxRec): Record<string, unknown> {
  return {
    id: tx.id,
    type: tx.type,
    status: tx.status,
    direction: tx.direction,
    ...tx.fields,
    ...(tx.failureReason ? { failureReason: tx.failureReason } : {}),
    ...(tx.refund ? { refund: tx.refund } : {}),
    ...(tx.settledAt ? { settledAt: tx.settledAt } : {}),
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

export function requireTransaction(emu: EmulatorContext, id: string): TxRec {
  const tx = emu.table(transactions).get(id);
  if (!tx) throw notFound('Transaction', id, 'TRANSACTION_NOT_FOUND');
  return tx;
}
