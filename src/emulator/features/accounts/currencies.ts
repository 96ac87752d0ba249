/**
 * Currencies: every one the description names (src/service/currencies.ts) may be quoted, paid out
 * and held by an external account; internal accounts (customers' wallets, the platform's accounts)
 * are kept in ACCOUNT_CURRENCIES. Amounts are integers in the currency's smallest unit.
 */
import { CURRENCIES } from '../../../service/currencies.js';
import { MAX_FUND_AMOUNT } from '../../../sandbox/api.js';

export {
  CURRENCIES,
  CURRENCY_CODES,
  type Currency,
} from '../../../service/currencies.js';

/** The currencies of internal accounts: the platform has one of each, a customer USD and EUR wallets. */
export const ACCOUNT_CURRENCIES: readonly string[] = ['USD', 'EUR', 'MXN'];

/** The fund endpoint's limit (src/sandbox/api.ts), which the client checks too; the emulator applies it to every amount. */
export const MAX_AMOUNT = MAX_FUND_AMOUNT;

export function money(amount: number, code: string): { amount: number; currency: (typeof CURRENCIES)[string] } {
  return { amount, currency: CURRENCIES[code]! };
}
