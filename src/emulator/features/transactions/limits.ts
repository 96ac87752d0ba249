/**
 * The single-transaction maximum per currency: the emulator option transactionLimits (defaults in
 * options.ts), and for a currency it leaves out the USD default at the rate table's rate.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { convert, rates } from '../exchange-rates/rates.js';
import { DEFAULT_TRANSACTION_LIMITS } from './options.js';

export function maxAmount(emu: EmulatorContext, currency: string): number {
  return (
    emu.opts.transactionLimits[currency] ??
    convert(rates(emu), emu.opts.transactionLimits.USD ?? DEFAULT_TRANSACTION_LIMITS.USD!, 'USD', currency)
  );
}

export function checkSizeLimit(emu: EmulatorContext, currency: string, amount: number): void {
  const max = maxAmount(emu, currency);
  if (amount > max) {
    throw badRequest(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `${amount} exceeds the single-transaction maximum of ${max} ${currency} (smallest unit)`,
      { maxAmount: max, currency },
    );
  }
}
