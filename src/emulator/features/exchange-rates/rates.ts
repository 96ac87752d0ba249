/**
 * The one table of exchange rates and platform fees: quotes, transfers' spending checks, incoming
 * UMA payments, receiver look-ups and GET /exchange-rates all read it. The rates are fixed (no
 * drift, no seed): a test may compute what a quote will show. `updatedAt` is the start of the
 * current 5-minute window of emulator time (the spec's rate cache), so it moves, the rates do not.
 *
 * `exchangeRate` follows the description's schemas: the number of sending currency units per
 * receiving currency unit, in whole units (USD→INR at 82.5 rupees a dollar is 0.012121…).
 */
import { ACCOUNT_TYPES } from '../../../service/account-types.js';
import { CURRENCIES } from '../../../service/currencies.js';
import type { EmulatorContext } from '../../kernel/context.js';

const RATE_CACHE_MS = 5 * 60 * 1000;

/** Units of each currency one US dollar buys: the emulator's fixed table (documented in its README). */
export const PER_USD: Readonly<Record<string, number>> = {
  AED: 3.6725,
  ARS: 1000,
  BDT: 120,
  BRL: 5.5,
  BTC: 0.00001,
  BWP: 13.5,
  CAD: 1.37,
  CNY: 7.2,
  COP: 4000,
  DKK: 6.85,
  EGP: 48.5,
  EUR: 0.92,
  GBP: 0.79,
  GHS: 15,
  GTQ: 7.75,
  HKD: 7.8,
  HTG: 132,
  IDR: 16000,
  INR: 82.5,
  JMD: 156,
  KES: 129,
  MWK: 1730,
  MXN: 18.5,
  MYR: 4.7,
  NGN: 1500,
  PHP: 56,
  PKR: 280,
  RWF: 1300,
  SGD: 1.35,
  SLV: 8.75,
  THB: 35,
  TZS: 2600,
  UGX: 3800,
  USD: 1,
  USDC: 1,
  USDT: 1,
  VND: 25000,
  XAF: 600,
  XOF: 600,
  ZAR: 18.5,
  ZMW: 26,
};

/** The platform's fixed fee per quote: 0.30 USD at the table's rate, in the sending currency's smallest unit… */
const FEE_USD = 0.3;
/** …except where a round figure was chosen (MXN 5.00; EUR 0.30). */
const FEE_OVERRIDES: Readonly<Record<string, number>> = { EUR: 30, MXN: 500 };

const scale = (code: string): number => 10 ** CURRENCIES[code]!.decimals;

/** The fixed fee of a quote sending `code`, in its smallest unit (at least 1). */
export function platformFee(code: string): number {
  return FEE_OVERRIDES[code] ?? Math.max(1, Math.round(FEE_USD * PER_USD[code]! * scale(code)));
}

/** Currencies an external account of some type holds (a SWIFT account's many not counted), and its rails. */
const RAILS_OF: ReadonlyMap<string, readonly string[]> = new Map(
  Object.values(ACCOUNT_TYPES)
    .filter((t) => t.currencies.length === 1 || t.wallet)
    .flatMap((t) => t.currencies.map((c) => [c, t.paymentRails ?? []] as const)),
);

/** Every currency a payout can be made in: those some external-account type holds. */
export const PAYOUT_CURRENCIES: readonly string[] = [...RAILS_OF.keys()].sort();

/** Where a SEPA currency is paid out instantly, that rail; else the first its account type lists. */
const PREFERRED_RAIL: Readonly<Record<string, string>> = { EUR: 'SEPA_INSTANT', DKK: 'SEPA_INSTANT' };

/**
 * The rail a payout in `code` takes; undefined for BTC and the stablecoins, which move on their
 * networks (the description's PaymentRail has no value for them).
 */
export function payoutRail(code: string): string | undefined {
  return PREFERRED_RAIL[code] ?? RAILS_OF.get(code)?.[0];
}

export interface RateSnapshot {
  updatedAtMs: number;
  /** Sending units per receiving unit (whole units), 10 significant digits. */
  rate(from: string, to: string): number;
}

export function rates(emu: EmulatorContext): RateSnapshot {
  return {
    updatedAtMs: Math.floor(emu.now() / RATE_CACHE_MS) * RATE_CACHE_MS,
    rate: (from, to) => (from === to ? 1 : Number((PER_USD[from]! / PER_USD[to]!).toPrecision(10))),
  };
}

/** Rounds down, forgiving binary noise (9199.999999999 is 9200). */
function floorish(x: number): number {
  const near = Math.round(x);
  return Math.abs(x - near) <= 1e-9 * Math.max(1, Math.abs(x)) ? near : Math.floor(x);
}

/** What `amount` (smallest unit of `from`) buys of `to` at the snapshot's rate, rounded down. */
export function convert(snapshot: RateSnapshot, amount: number, from: string, to: string): number {
  if (from === to) return amount;
  return floorish(((amount / scale(from)) * scale(to)) / snapshot.rate(from, to));
}

/** What must be sent (smallest unit of `from`) for `amount` of `to` to arrive, rounded up. */
export function costOf(snapshot: RateSnapshot, amount: number, from: string, to: string): number {
  if (from === to) return amount;
  return -floorish(-((amount / scale(to)) * scale(from) * snapshot.rate(from, to)));
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
  const fee = platformFee(from);
  if (side === 'SENDING') {
    const receiving = convert(snapshot, amount - fee, from, to);
    if (receiving <= 0) return undefined;
    return { totalSendingAmount: amount, totalReceivingAmount: receiving, exchangeRate, feesIncluded: fee };
  }
  return {
    totalSendingAmount: costOf(snapshot, amount, from, to) + fee,
    totalReceivingAmount: amount,
    exchangeRate,
    feesIncluded: fee,
  };
}
