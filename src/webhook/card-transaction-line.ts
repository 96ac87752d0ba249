/**
 * The one readable line of a CARD_TRANSACTION.* event (the description's card-transaction
 * webhook, data a CardTransaction): status, the amount that status is about, the merchant.
 * `AUTHORIZED 12.50 USD at BLUE BOTTLE COFFEE SF`, `PARTIALLY_SETTLED 4.00 of 10.00 USD at …`,
 * `REFUNDED 15.00 USD back from …`, a credit `SETTLED credit 40.00 USD from ACME PAYOUTS`.
 */
import { formatMoney, type Money } from '../sandbox/format-money.js';

const asMoney = (value: unknown): Money | undefined =>
  value !== null && typeof value === 'object' ? (value as Money) : undefined;

export function cardTransactionLine(data: Record<string, unknown>): string {
  const status = typeof data.status === 'string' ? data.status : '?';
  const merchant = asMoney(data.merchant) as { descriptor?: unknown } | undefined;
  const where = typeof merchant?.descriptor === 'string' ? merchant.descriptor : 'an unnamed merchant';
  const authorized = formatMoney(asMoney(data.authorizedAmount));
  const settled = formatMoney(asMoney(data.settledAmount));
  const refunded = formatMoney(asMoney(data.refundedAmount));
  const credit = data.direction === 'CREDIT';
  if (status === 'REFUNDED' && refunded) return `${status} ${refunded} back from ${where}`;
  let amount = settled ?? authorized ?? '';
  if (status === 'PARTIALLY_SETTLED' && settled && authorized) amount = `${settled.split(' ')[0]} of ${authorized}`;
  else if (status === 'AUTHORIZED') amount = authorized ?? '';
  const pending = (data.pullSummary as { pendingCount?: unknown } | undefined)?.pendingCount;
  const notes = [
    ...(refunded ? [`${refunded} refunded`] : []),
    ...(typeof pending === 'number' && pending > 0 ? ['pull pending'] : []),
  ];
  const line = `${status} ${credit ? 'credit ' : ''}${amount} ${credit ? 'from' : 'at'} ${where}`;
  return notes.length > 0 ? `${line} (${notes.join(', ')})` : line;
}
