/**
 * Card transactions in `GET /transactions` and `GET /transactions/{id}` (the description: "Card
 * transactions are included and identified by type: CARD"), under the same filters as the others:
 * the funding account is the sender of a debit and the receiver of a credit; the card transaction
 * has no reference, and only REFUNDED of its statuses is also a TransactionStatus.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import type { Req } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { cardTransactions, renderCardTransaction, requireCardTransaction as find, type CardTxRec } from './records.js';

export interface TransactionQuery {
  customerId?: string;
  platformCustomerId?: string;
  accountIdentifier?: string;
  sender?: string;
  receiver?: string;
  status?: string;
  reference?: string;
  start?: number;
  finish?: number;
}

function matches(tx: CardTxRec, q: TransactionQuery): boolean {
  const created = Date.parse(tx.createdAt);
  const debit = tx.direction === 'DEBIT';
  return (
    (!q.customerId || tx.customerId === q.customerId) &&
    (!q.platformCustomerId || tx.platformCustomerId === q.platformCustomerId) &&
    (!q.accountIdentifier || tx.accountId === q.accountIdentifier) &&
    (!q.sender || (debit && tx.accountId === q.sender)) &&
    (!q.receiver || (!debit && tx.accountId === q.receiver)) &&
    (!q.status || tx.status === q.status) &&
    !q.reference &&
    (q.start === undefined || created >= q.start) &&
    (q.finish === undefined || created <= q.finish)
  );
}

/** The caller's card transactions that match, in creation order, with their creation time for merging. */
export function cardTransactionsMatching(
  emu: EmulatorContext,
  req: Req,
  q: TransactionQuery,
): { at: string; body: Record<string, unknown> }[] {
  return emu
    .table(cardTransactions)
    .filter((tx) => callerMaySee(req, tx.customerId) && matches(tx, q))
    .map((tx) => ({ at: tx.createdAt, body: renderCardTransaction(tx) }));
}

/** One card transaction, rendered; 404 TRANSACTION_NOT_FOUND when unknown or another customer's (an agent). */
export function requireCardTransaction(emu: EmulatorContext, req: Req, id: string): Record<string, unknown> {
  const tx = find(emu, id);
  if (!callerMaySee(req, tx.customerId)) throw notFound('Transaction', id, 'TRANSACTION_NOT_FOUND');
  return renderCardTransaction(tx);
}
