/** The single-transaction maximum per currency (emulator option transactionLimits; defaults in options.ts). */
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';

export function checkSizeLimit(emu: EmulatorContext, currency: string, amount: number): void {
  const max = emu.opts.transactionLimits[currency];
  if (max !== undefined && amount > max) {
    throw badRequest(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `${amount} exceeds the single-transaction maximum of ${max} ${currency} (smallest unit)`,
      { maxAmount: max, currency },
    );
  }
}
