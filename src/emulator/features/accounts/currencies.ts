/**
 * Currencies. Amounts are integers in the smallest unit; all three currencies have two decimals,
 * so converting is a plain multiply by the rate (rates: ../exchange-rates).
 */
import { MAX_FUND_AMOUNT } from '../../../sandbox/api.js';

export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export const CURRENCIES: Record<string, Currency> = {
  USD: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  EUR: { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  MXN: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
};
export const CURRENCY_CODES = Object.keys(CURRENCIES);

/** The fund endpoint's limit (src/sandbox/api.ts), which the client checks too; the emulator applies it to every amount. */
export const MAX_AMOUNT = MAX_FUND_AMOUNT;

export function money(amount: number, code: string): { amount: number; currency: Currency } {
  return { amount, currency: CURRENCIES[code]! };
}
