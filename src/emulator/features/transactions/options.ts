/** The single-transaction maximum per currency (read by limits.ts, the receiver look-up and the rate table). */
import { UsageError } from '../../../errors.js';
import { CURRENCY_CODES } from '../../../service/currencies.js';
import { count, type AreaOptions } from '../../kernel/option.js';

/**
 * The spec says the single-transaction maximum is configured per corridor or currency without
 * giving a value; these are the emulator's: 100,000.00 USD or EUR, 2,000,000.00 MXN (any other
 * currency: the USD limit at the rate table's rate, limits.ts).
 */
export const DEFAULT_TRANSACTION_LIMITS: Readonly<Record<string, number>> = {
  USD: 10_000_000,
  EUR: 10_000_000,
  MXN: 200_000_000,
};

export interface TransactionsOptions {
  /**
   * Single-transaction maximum per currency, in the currency's smallest unit (default
   * DEFAULT_TRANSACTION_LIMITS); a quote or transfer above it is 400 TRANSACTION_SIZE_LIMIT_EXCEEDED.
   * Currencies left out keep their default.
   */
  transactionLimits?: Record<string, number>;
}

/** `USD=500000,EUR=100000` → {USD: 500000, EUR: 100000}. */
function limitList(value: string, flag: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of value.split(',')) {
    const m = /^([A-Z]{3,4})=(\d{1,15})$/.exec(item.trim());
    if (!m || Number(m[2]) < 1) {
      throw new UsageError(
        `${flag} takes CURRENCY=amount pairs (amount in minor units, at least 1), comma-separated, e.g. USD=500000,EUR=100000; got ${JSON.stringify(item)}`,
        { input: flag },
      );
    }
    knownCurrency(m[1]!, flag);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** A limit for a currency the emulator does not quote would never apply: refused, naming it. */
function knownCurrency(code: string, input: string): void {
  if (CURRENCY_CODES.includes(code)) return;
  throw new UsageError(`${input} names ${code}, a currency the emulator does not know`, {
    input,
    hint: `Use one of the description's currencies: ${CURRENCY_CODES.join(', ')}.`,
  });
}

export const transactionsOptions = {
  flags: {
    transactionLimits: {
      syntax: '--transaction-limits <list>',
      description:
        'single-transaction maximum per currency in minor units, e.g. USD=500000,EUR=100000 (default 10000000 USD and EUR, 200000000 MXN, others the USD limit converted at the rate table)',
      parse: limitList,
    },
  },
  resolve(o) {
    const limits = { ...DEFAULT_TRANSACTION_LIMITS };
    for (const [code, max] of Object.entries(o.transactionLimits ?? {})) {
      knownCurrency(code, `transactionLimits.${code}`);
      limits[code] = count(max, 0, `transactionLimits.${code}`, 1);
    }
    return { transactionLimits: limits };
  },
} satisfies AreaOptions<TransactionsOptions, { transactionLimits: Record<string, number> }>;
