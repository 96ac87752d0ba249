/**
 * The one table of exchange rates and platform fees: quotes, incoming UMA payments and
 * GET /exchange-rates all read it. Rates are cached as the spec says (about 5 minutes): within one
 * 5-minute window of emulator time every reader gets the same rates and `updatedAt`; the next window
 * moves them a little (at most ±0.1 % around the base), so a client that holds a rate too long notices.
 * Base rates, units per US dollar: EUR 0.92, MXN 18.5 (all three currencies have two decimals).
 */
import type { EmulatorContext } from '../../kernel/context.js';

export const RATE_CACHE_MS = 5 * 60 * 1000;

const BASE_PER_USD: Readonly<Record<string, number>> = { USD: 1, EUR: 0.92, MXN: 18.5 };

/** The platform's fixed fee per quote, in the sending currency's smallest unit (part of feesIncluded). */
export const PLATFORM_FIXED_FEE: Readonly<Record<string, number>> = { USD: 30, EUR: 30, MXN: 500 };

/** The rail a payout in each currency takes. */
export const PAYMENT_RAIL: Readonly<Record<string, string>> = { USD: 'ACH', EUR: 'SEPA_INSTANT', MXN: 'SPEI' };

export interface RateSnapshot {
  updatedAtMs: number;
  /** Receiving units per sending unit. */
  rate(from: string, to: string): number;
}

export function rates(emu: EmulatorContext): RateSnapshot {
  const window = Math.floor(emu.now() / RATE_CACHE_MS);
  const perUsd = (code: string, i: number): number => {
    if (code === 'USD') return 1;
    const step = ((window * 3 + i) % 5) - 2; // -2 … +2
    return BASE_PER_USD[code]! * (1 + step * 0.0005);
  };
  const codes = Object.keys(BASE_PER_USD);
  return {
    updatedAtMs: window * RATE_CACHE_MS,
    rate: (from, to) =>
      from === to ? 1 : Number((perUsd(to, codes.indexOf(to)) / perUsd(from, codes.indexOf(from))).toFixed(8)),
  };
}

export interface Priced {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
}

/**
 * The amounts of a quote: the locked side is exact, the fee is taken from the sending side before
 * converting. undefined when the sending amount does not cover the fee.
 */
export function price(
  snapshot: RateSnapshot,
  from: string,
  to: string,
  side: 'SENDING' | 'RECEIVING',
  amount: number,
): Priced | undefined {
  const exchangeRate = snapshot.rate(from, to);
  const fee = PLATFORM_FIXED_FEE[from] ?? 0;
  if (side === 'SENDING') {
    const receiving = Math.floor((amount - fee) * exchangeRate);
    if (receiving <= 0) return undefined;
    return { totalSendingAmount: amount, totalReceivingAmount: receiving, exchangeRate, feesIncluded: fee };
  }
  return {
    totalSendingAmount: Math.ceil(amount / exchangeRate) + fee,
    totalReceivingAmount: amount,
    exchangeRate,
    feesIncluded: fee,
  };
}
