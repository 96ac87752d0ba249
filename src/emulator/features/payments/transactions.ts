/** Transactions made by sandbox payments, stored as their rendered bodies. */
import { randomUUID } from 'node:crypto';
import type { UmaOutcome } from '../../../service/money-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable } from '../../kernel/tables.js';

export const transactions = durableTable<Record<string, unknown>>('transactions');

/**
 * Stores a transaction: its own fields plus id, type, status and times; a FAILED one says why, and
 * only a COMPLETED one is settled.
 */
export function recordTransaction(
  emu: EmulatorContext,
  type: 'OUTGOING' | 'INCOMING',
  status: UmaOutcome,
  fields: Record<string, unknown>,
  failureReason?: string,
): Record<string, unknown> {
  const now = emu.iso();
  const id = `Transaction:${randomUUID()}`;
  const outcome = status === 'FAILED' ? { failureReason } : status === 'COMPLETED' ? { settledAt: now } : {};
  return emu.table(transactions).set(id, { id, type, status, ...fields, ...outcome, createdAt: now, updatedAt: now });
}
