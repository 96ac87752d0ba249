/**
 * How an issuer operation moves on the emulator's clock. One awaiting funds (a wire-funded mint, a
 * burn of tokens sent from an external wallet) is PENDING_FUNDING: the sandbox's provider reports
 * the funds received after STEP_MS; one the provider runs itself (ACH debit, provider balance) is
 * PENDING_PROVIDER. Either is PROCESSING for the next STEP_MS, then COMPLETED. No money moves in
 * the emulator's ledger: the tokens live at the provider and on Spark, outside it.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { operations, type OperationRec, type OperationStatus } from './records.js';

const STEP_MS = 30_000;
/** How long funding instructions stay good (expiresAt); funds arrive well before, in the sandbox. */
export const FUNDING_WINDOW_MS = 24 * 60 * 60 * 1000;

const NEXT: Partial<Record<OperationStatus, OperationStatus>> = {
  CREATED: 'PROCESSING',
  PENDING_FUNDING: 'PROCESSING',
  PENDING_PROVIDER: 'PROCESSING',
  PROCESSING: 'COMPLETED',
};

/** The provider's own word for each status, as providerStatus shows it. */
const PROVIDER_STATUS: Partial<Record<OperationStatus, string>> = {
  PENDING_FUNDING: 'pending',
  PENDING_PROVIDER: 'pending',
  PROCESSING: 'processing',
  COMPLETED: 'complete',
};

export function setStatus(emu: EmulatorContext, op: OperationRec, status: OperationStatus): void {
  op.status = status;
  op.providerStatus = PROVIDER_STATUS[status] ?? status.toLowerCase();
  op.updatedAt = emu.iso();
  if (status === 'PROCESSING' || status === 'COMPLETED') delete op.expiresAt;
  emu.table(operations).set(op.id, op);
}

/** Moves the operation one status on after STEP_MS, and so on until COMPLETED. */
export function scheduleOperation(emu: EmulatorContext, id: string): void {
  emu.later(STEP_MS, () => {
    const op = emu.table(operations).get(id);
    const next = op && NEXT[op.status];
    if (!op || !next) return;
    setStatus(emu, op, next);
    scheduleOperation(emu, id);
  });
}
