/**
 * State files written before transactions had courses stored each transaction as its rendered body.
 * Such records become settled transactions with no course left, so lists and reads keep working.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { transactions, type TxRec } from './transactions.js';

const OWN = new Set([
  'id',
  'type',
  'status',
  'direction',
  'failureReason',
  'refund',
  'settledAt',
  'createdAt',
  'updatedAt',
]);

export function migrateTransactions(emu: EmulatorContext): void {
  for (const [id, record] of emu.table(transactions).entries()) {
    if ((record as Partial<TxRec>).course) continue;
    const old = record as unknown as Record<string, unknown>;
    const migrated: TxRec = {
      id,
      type: old.type === 'INCOMING' ? 'INCOMING' : 'OUTGOING',
      status: (old.status as TxRec['status']) ?? 'COMPLETED',
      direction: old.type === 'INCOMING' ? 'CREDIT' : 'DEBIT',
      ...(typeof old.customerId === 'string' ? { customerId: old.customerId } : {}),
      fields: Object.fromEntries(Object.entries(old).filter(([k]) => !OWN.has(k))),
      ...(typeof old.failureReason === 'string' ? { failureReason: old.failureReason } : {}),
      ...(typeof old.settledAt === 'string' ? { settledAt: old.settledAt } : {}),
      createdAt: String(old.createdAt ?? emu.iso()),
      updatedAt: String(old.updatedAt ?? emu.iso()),
      course: { steps: [], next: 0 },
    };
    emu.table(transactions).set(id, migrated);
  }
}
