/**
 * One-line summaries of the transactions the sandbox returns. The spec does not show the Transaction
 * shape, so this reads only what is commonly there (id, status, an amount) and leaves the rest to
 * --json, which prints the body untouched.
 */
import { currencyOf, formatMoney, type Money } from '../../src/sandbox/format-money.js';

// What arrived is what a user checks first; the other names cover shapes the spec leaves open.
const AMOUNT_FIELDS = ['receivedAmount', 'amount', 'sentAmount', 'receivingAmount', 'totalAmount'];

export function describeTransaction(body: unknown): string {
  const tx = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof tx.id === 'string') parts.push(tx.id);
  if (typeof tx.status === 'string') parts.push(`status ${tx.status}`);
  if (typeof tx.failureReason === 'string') parts.push(`reason ${tx.failureReason}`);
  for (const field of AMOUNT_FIELDS) {
    const money = formatMoney(tx[field] as Money | undefined);
    if (money) {
      parts.push(money + sentAs(tx, field));
      break;
    }
  }
  return parts.length > 0 ? parts.join(', ') : 'no transaction details returned';
}

/** " (sent as 10.88 USD)" when what arrived is in another currency than what was sent, else "". */
function sentAs(tx: Record<string, unknown>, shown: string): string {
  if (shown !== 'receivedAmount') return '';
  const sent = tx.sentAmount as Money | undefined;
  const differs = currencyOf(sent).code !== currencyOf(tx.receivedAmount as Money).code;
  const text = differs ? formatMoney(sent) : undefined;
  return text ? ` (sent as ${text})` : '';
}

/** The currency code of what arrived, if the body says. */
export function receivedCurrency(body: unknown): string | undefined {
  const tx = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return currencyOf(tx.receivedAmount as Money | undefined).code;
}
