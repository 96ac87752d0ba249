/**
 * The card simulators' magic (public API description, `POST /sandbox/cards/{id}/simulate/authorization`
 * and the authorization-family simulators that refer to it): the last three characters of
 * `merchant.descriptor` decide the authorization and what happens to the money it moves. The spec
 * itself has no card-transaction table (its Events rule 5 only says the lifecycle rides on the
 * transaction stream), so the description's words are quoted.
 */
import type { SuffixTable } from './suffix-table.js';

const SECOND = 1000;

export interface CardAuthorizationOutcome {
  /** DECLINED: no CardTransaction is made and nothing moves. */
  decision: 'APPROVED' | 'DECLINED';
  declineReason?: 'INSUFFICIENT_FUNDS' | 'CARD_PAUSED';
  /** How long each movement of the funding source (a pull, or a credit) stays PENDING before its confirmation. */
  confirmAfterMs: number;
  /** FAILED: the movement's confirmation reports a failure, and the transaction goes to EXCEPTION. */
  confirmation: 'CONFIRMED' | 'FAILED';
}

const APPROVED: CardAuthorizationOutcome = { decision: 'APPROVED', confirmAfterMs: 0, confirmation: 'CONFIRMED' };

export const CARD_AUTHORIZATION: SuffixTable<CardAuthorizationOutcome> = {
  name: 'Card authorization',
  field: 'merchant.descriptor',
  length: 3,
  rows: [
    {
      suffix: '002',
      outcome: { ...APPROVED, decision: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' },
      spec: 'decline — INSUFFICIENT_FUNDS (the pull on the funding source fails)',
    },
    {
      suffix: '003',
      outcome: { ...APPROVED, decision: 'DECLINED', declineReason: 'CARD_PAUSED' },
      spec: 'decline — CARD_PAUSED (as a frozen card refuses authorizations)',
    },
    {
      suffix: '005',
      outcome: { ...APPROVED, confirmAfterMs: 30 * SECOND },
      spec: 'delayed pull (~30 s): the pull stays PENDING, then is CONFIRMED',
    },
    {
      suffix: '006',
      outcome: { ...APPROVED, confirmation: 'FAILED' },
      spec: 'the pull succeeds but its confirmation reports FAILED: EXCEPTION',
    },
  ],
  otherwise: { outcome: APPROVED, spec: 'approved' },
};

/** The description's CardTransactionStatus. */
const CARD_TRANSACTION_STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
