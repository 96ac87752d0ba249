/**
 * Which step a card transaction can take, by the description's words: a clearing and an
 * authorization advice need AUTHORIZED or PARTIALLY_SETTLED (an advice not below what already
 * settled); a return needs at least one settled clearing and at most the net settled amount
 * (settled minus returned); a return reversal needs REFUNDED. The emulator's own choices: nothing
 * follows an EXCEPTION, and only a debit can be returned (a credit was never paid by the cardholder).
 */
import type { CardTxRec, SimKind } from './records.js';
import { refunded } from './records.js';

export interface Refusal {
  field: 'cardTransactionId' | 'amount';
  message: string;
}

const OPEN = ['AUTHORIZED', 'PARTIALLY_SETTLED'];

export function whyNot(tx: CardTxRec, kind: SimKind, amount?: number): Refusal | undefined {
  const status = (wanted: string) => ({
    field: 'cardTransactionId' as const,
    message: `${tx.id} is ${tx.status}; ${kind} needs ${wanted}`,
  });
  switch (kind) {
    case 'clearing':
      return OPEN.includes(tx.status) ? undefined : status('AUTHORIZED or PARTIALLY_SETTLED');
    case 'authorization_advice':
      if (!OPEN.includes(tx.status)) return status('AUTHORIZED or PARTIALLY_SETTLED');
      return amount !== undefined && amount < tx.settled
        ? { field: 'amount', message: `the new total ${amount} is below the ${tx.settled} already settled` }
        : undefined;
    case 'return': {
      if (tx.direction !== 'DEBIT')
        return { field: 'cardTransactionId', message: `${tx.id} is a credit to the card; only a debit is returned` };
      if (tx.clearings.length === 0 || tx.status === 'EXCEPTION' || tx.status === 'AUTHORIZED')
        return status('at least one settled clearing (SETTLED, PARTIALLY_SETTLED or REFUNDED)');
      const net = tx.settled - refunded(tx);
      return amount !== undefined && amount > net
        ? { field: 'amount', message: `amount must be at most the net settled amount ${net} (settled minus returned)` }
        : undefined;
    }
    case 'return_reversal':
      return tx.status === 'REFUNDED' ? undefined : status('REFUNDED');
    default:
      return undefined;
  }
}
