/**
 * Currencies: every one the description names (src/service/currencies.ts) may be quoted, paid out,
 * held by an external account and by one of the platform's internal accounts (customers' wallets
 * hold USD and EUR). Amounts are integers in the currency's smallest unit.
 */
import { CURRENCIES } from '../../../service/currencies.js';
import { MAX_FUND_AMOUNT } from '../../../sandbox/api.js';

export {
  CURRENCIES,
  CURRENCY_CODES,
} from '../../../service/currencies.js';

/** The currencies that are not fiat: the platform holds them in INTERNAL_CRYPTO accounts. */
export const CRYPTO_CURRENCIES: ReadonlySet<string> = new Set(['BTC', 'USDC', 'USDT']);

/** The fund endpoint's limit (src/sandbox/api.ts), which the client checks too; the emulator applies it to every amount. */
export const MAX_AMOUNT = MAX_FUND_AMOUNT;

export function money(amount: number, code: string): { amount: number; currency: (typeof CURRENCIES)[string] } {
  return { amount, currency: CURRENCIES[code]! };
}
