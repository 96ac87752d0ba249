/**
 * Formats amounts in the smallest currency unit (what the sandbox endpoints take and return) for
 * people: 100000 with 2 decimals → "1,000.00". BigInt keeps every digit exact, since amounts reach
 * 10^11 and a float round-trip could print a wrong cent.
 */

interface CurrencyInfo {
  code?: string;
  decimals?: number;
}
export interface Money {
  amount?: number | string;
  currency?: CurrencyInfo | string;
}

export function formatMinorUnits(amount: number | string | bigint, decimals = 2): string {
  let value = BigInt(amount);
  const negative = value < 0n;
  if (negative) value = -value;
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** The code and decimals of a money object's currency (a bare code string counts; 2 decimals by default). */
export function currencyOf(money: Money | undefined): { code?: string; decimals: number } {
  const currency = typeof money?.currency === 'string' ? { code: money.currency } : (money?.currency ?? {});
  const decimals = Number.isInteger(currency.decimals) && currency.decimals! >= 0 ? currency.decimals! : 2;
  return { code: typeof currency.code === 'string' ? currency.code : undefined, decimals };
}

/** "1,000.00 USD" from `{amount, currency:{code, decimals}}`; undefined when the shape is not there. */
export function formatMoney(money: Money | undefined): string | undefined {
  if (!money || money.amount === undefined || !/^-?\d+$/.test(String(money.amount))) return undefined;
  const { code, decimals } = currencyOf(money);
  const text = formatMinorUnits(money.amount, decimals);
  return code ? `${text} ${code}` : text;
}
