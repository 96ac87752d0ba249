/**
 * Card transactions (the description's CardTransaction, `type: CARD`): one record per approved
 * authorization, with the movements of its funding source (pulls for a debit, credits for a credit),
 * its clearings and its returns, from which the rendered summaries are rolled up. Simulated card
 * events not yet processed are kept too (`cardEvents`), so a restart re-arms them.
 */
import type { CardTransactionStatus } from '../../../service/card-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';
import { money } from '../accounts/currencies.js';

export interface Merchant {
  descriptor: string;
  mcc?: string;
  country?: string;
}

/** A movement of the funding source: PENDING until its confirmation (at once, or after the 005 delay). */
export interface Movement {
  kind: 'PULL' | 'CREDIT';
  amount: number;
  state: 'PENDING' | 'CONFIRMED' | 'FAILED';
  /** Of a pending pull: the part still held on the account (money given back is released from here first). */
  held: number;
  /** When a PENDING movement's confirmation arrives (epoch ms of the emulator clock). */
  dueMs?: number;
}

export interface CardTxRec {
  id: string;
  cardId: string;
  /** The cardholder: also what the kernel's agent scope reads as the owner. */
  customerId: string;
  platformCustomerId: string;
  issuerTransactionToken: string;
  status: CardTransactionStatus;
  direction: 'DEBIT' | 'CREDIT';
  merchant: Merchant;
  currency: string;
  authorized: number;
  /** Sum of the clearings. */
  settled: number;
  /** The funding source chosen at authorization. */
  accountId: string;
  movements: Movement[];
  clearings: number[];
  returns: { amount: number; reversed?: boolean }[];
  /** Closed by a clearing of 0 (authorization expiry) or a final clearing: no more clearings. */
  closed?: boolean;
  authorizedAt: string;
  lastEventAt?: string;
  createdAt: string;
  updatedAt: string;
}

export type SimKind =
  | 'authorization'
  | 'balance_inquiry'
  | 'credit_authorization'
  | 'financial_authorization'
  | 'financial_credit_authorization'
  | 'credit_authorization_advice'
  | 'clearing'
  | 'return'
  | 'return_reversal'
  | 'authorization_advice';

/** A simulate call accepted (202) and not yet processed. `id` is the issuerTransactionToken answered. */
export interface CardEvent {
  id: string;
  kind: SimKind;
  cardId: string;
  dueMs: number;
  amount?: number;
  merchant?: Merchant;
  cardTransactionId?: string;
}

export const cardTransactions = durableTable<CardTxRec>('cardTransactions', {
  id: 'string',
  cardId: 'string',
  customerId: 'string',
  platformCustomerId: 'string',
  issuerTransactionToken: 'string',
  status: 'string',
  direction: 'string',
  merchant: 'object',
  currency: 'string',
  authorized: 'number',
  settled: 'number',
  accountId: 'string',
  movements: 'array',
  clearings: 'array',
  returns: 'array',
  closed: 'boolean?',
  authorizedAt: 'string',
  lastEventAt: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
});
export const cardEvents = durableTable<CardEvent>('cardEvents', {
  id: 'string',
  kind: 'string',
  cardId: 'string',
  dueMs: 'number',
  amount: 'number?',
  merchant: 'object?',
  cardTransactionId: 'string?',
});

export function refunded(tx: CardTxRec): number {
  return tx.returns.reduce((sum, r) => sum + (r.reversed ? 0 : r.amount), 0);
}

function summary(amounts: number[]): { count: number; totalAmount: number } {
  return { count: amounts.length, totalAmount: amounts.reduce((a, b) => a + b, 0) };
}

export function renderCardTransaction(tx: CardTxRec): Record<string, unknown> {
  const pulls = tx.movements.filter((m) => m.kind === 'PULL');
  const kept = tx.returns.filter((r) => !r.reversed).map((r) => r.amount);
  const back = refunded(tx);
  return {
    type: 'CARD',
    id: tx.id,
    cardId: tx.cardId,
    customerId: tx.customerId,
    platformCustomerId: tx.platformCustomerId,
    issuerTransactionToken: tx.issuerTransactionToken,
    status: tx.status,
    direction: tx.direction,
    merchant: tx.merchant,
    authorizedAmount: money(tx.authorized, tx.currency),
    ...(tx.clearings.length > 0 || tx.closed ? { settledAmount: money(tx.settled, tx.currency) } : {}),
    ...(back > 0 ? { refundedAmount: money(back, tx.currency) } : {}),
    accountId: tx.accountId,
    pullSummary: {
      count: pulls.length,
      // A failed pull took nothing (the description's EXCEPTION example: count 1, totalAmount 0).
      totalAmount: pulls.reduce((sum, m) => sum + (m.state === 'FAILED' ? 0 : m.amount), 0),
      pendingCount: pulls.filter((m) => m.state === 'PENDING').length,
    },
    refundSummary: summary(kept),
    settlementSummary: summary(tx.clearings),
    authorizedAt: tx.authorizedAt,
    ...(tx.lastEventAt ? { lastEventAt: tx.lastEventAt } : {}),
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

export function requireCardTransaction(emu: EmulatorContext, id: string): CardTxRec {
  const tx = emu.table(cardTransactions).get(id);
  if (!tx) throw notFound('CardTransaction', id, 'TRANSACTION_NOT_FOUND');
  return tx;
}
