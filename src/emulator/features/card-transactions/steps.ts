/**
 * The card events, applied when they arrive (a second of emulator time after the simulate call):
 * - the authorization family opens a transaction: AUTHORIZED (a debit pulls its amount at once), or,
 *   single-message (financial_*), SETTLED with its one clearing; declined ones make nothing;
 * - a clearing adds to the settled amount: below the authorization PARTIALLY_SETTLED, reaching it
 *   SETTLED, above it SETTLED with a post-hoc pull of the excess (EXCEPTION when the balance no longer
 *   covers it); a clearing of 0 is the authorization's expiry: SETTLED, the unused rest given back;
 * - a return credits up to the net settled amount: all of it REFUNDED, part of it stays SETTLED;
 * - a return reversal takes the last return back (a pull) and the transaction is SETTLED again;
 * - an authorization advice re-sizes an open authorization to its new total (pulls more or gives back).
 * Each change is published (movements.ts). What the request checked (routes.ts) is checked again
 * here, as another event may have changed the transaction meanwhile: such an event is dropped and logged.
 */
import { newId } from '../../kernel/ids.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { LedgerBatch } from '../accounts/ledger.js';
import { accounts } from '../accounts/accounts.js';
import { cards, type CardRec } from '../cards/cards.js';
import { customers } from '../customers/customers.js';
import { available, giveBack, move, outcomeOf, publish } from './movements.js';
import { cardTransactions, refunded, type CardEvent, type CardTxRec, type SimKind } from './records.js';
import { whyNot } from './rules.js';

/** The authorization family: direction, and whether the one message also clears (financial_*). */
const OPENERS: Partial<Record<SimKind, { direction: 'DEBIT' | 'CREDIT'; clears: boolean }>> = {
  authorization: { direction: 'DEBIT', clears: false },
  balance_inquiry: { direction: 'DEBIT', clears: false },
  financial_authorization: { direction: 'DEBIT', clears: true },
  credit_authorization: { direction: 'CREDIT', clears: false },
  credit_authorization_advice: { direction: 'CREDIT', clears: false },
  financial_credit_authorization: { direction: 'CREDIT', clears: true },
};

/** Why the issuer declines, if it does; else the funding source that pays (the first one that can). */
function decide(
  emu: EmulatorContext,
  card: CardRec,
  ev: CardEvent,
  debit: boolean,
): { accountId?: string; declined?: string } {
  const outcome = outcomeOf({ merchant: ev.merchant! });
  if (card.state === 'FROZEN') return { declined: 'CARD_PAUSED' };
  if (card.state !== 'ACTIVE') return { declined: `CARD_${card.state}` };
  if (outcome.decision === 'DECLINED') return { declined: outcome.declineReason! };
  const amount = ev.amount ?? 0;
  const limit = (card as { maxSpendPerTransaction?: number | null }).maxSpendPerTransaction;
  if (debit && typeof limit === 'number' && amount > limit) return { declined: 'SPEND_LIMIT_EXCEEDED' };
  const sources = card.fundingSources.filter((id) => emu.table(accounts).get(id)?.currency === card.currency);
  const payer = debit ? sources.find((id) => available(emu, id) >= amount) : sources[0];
  return payer ? { accountId: payer } : { declined: 'INSUFFICIENT_FUNDS' };
}

function open(emu: EmulatorContext, ev: CardEvent, shape: { direction: 'DEBIT' | 'CREDIT'; clears: boolean }): void {
  const card = emu.table(cards).get(ev.cardId)!;
  const debit = shape.direction === 'DEBIT';
  const { accountId, declined } = decide(emu, card, ev, debit);
  if (declined) {
    // The description has no declined status or event: the platform sees nothing; the log says why.
    emu.log({ kind: 'card', message: `${ev.kind} ${ev.id} on ${card.id} declined: ${declined}` });
    return;
  }
  const now = emu.iso();
  const amount = ev.amount ?? 0;
  const holder = emu.table(customers).get(card.cardholderId);
  const tx: CardTxRec = {
    id: newId('CardTransaction'),
    cardId: card.id,
    customerId: card.cardholderId,
    platformCustomerId: holder?.platformCustomerId ?? '',
    issuerTransactionToken: ev.id,
    status: shape.clears ? 'SETTLED' : 'AUTHORIZED',
    direction: shape.direction,
    merchant: ev.merchant!,
    currency: card.currency,
    authorized: amount,
    settled: shape.clears ? amount : 0,
    accountId: accountId!,
    movements: [],
    clearings: shape.clears ? [amount] : [],
    returns: [],
    ...(shape.clears ? { closed: true } : {}),
    authorizedAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const batch = new LedgerBatch(emu);
  if (amount > 0 && (debit || shape.clears)) move(emu, tx, debit ? 'PULL' : 'CREDIT', amount, batch);
  publish(emu, tx, batch);
}

function clear(emu: EmulatorContext, tx: CardTxRec, amount: number, batch: LedgerBatch): void {
  const debit = tx.direction === 'DEBIT';
  // While open, a debit has pulled max(authorized, settled); closed, exactly what settled.
  const covered = Math.max(tx.authorized, tx.settled);
  if (amount === 0) {
    if (debit && covered > tx.settled) giveBack(tx, covered - tx.settled, batch);
    tx.closed = true;
    tx.status = 'SETTLED';
    return;
  }
  tx.clearings.push(amount);
  tx.settled += amount;
  tx.status = tx.settled >= tx.authorized ? 'SETTLED' : 'PARTIALLY_SETTLED';
  if (tx.status === 'SETTLED') tx.closed = true;
  if (!debit) move(emu, tx, 'CREDIT', amount, batch);
  else if (tx.settled > covered) move(emu, tx, 'PULL', tx.settled - covered, batch);
}

function advise(emu: EmulatorContext, tx: CardTxRec, total: number, batch: LedgerBatch): void {
  if (tx.direction === 'DEBIT') {
    if (total > tx.authorized) move(emu, tx, 'PULL', total - tx.authorized, batch);
    else if (total < tx.authorized) giveBack(tx, tx.authorized - total, batch);
  }
  tx.authorized = total;
  if (tx.status !== 'EXCEPTION' && tx.settled > 0 && tx.settled >= total) {
    tx.status = 'SETTLED';
    tx.closed = true;
  }
}

function refund(tx: CardTxRec, amount: number, batch: LedgerBatch): void {
  tx.returns.push({ amount });
  batch.credit(tx.accountId, amount);
  if (tx.status === 'SETTLED' && refunded(tx) === tx.settled) tx.status = 'REFUNDED';
}

function reverseReturn(emu: EmulatorContext, tx: CardTxRec, batch: LedgerBatch): void {
  const last = [...tx.returns].reverse().find((r) => !r.reversed)!;
  last.reversed = true;
  tx.status = 'SETTLED';
  move(emu, tx, 'PULL', last.amount, batch);
}

/** Applies one simulated event. */
export function applyEvent(emu: EmulatorContext, ev: CardEvent): void {
  const opener = OPENERS[ev.kind];
  if (opener) return open(emu, ev, opener);
  const tx = emu.table(cardTransactions).get(ev.cardTransactionId!);
  const problem = tx ? whyNot(tx, ev.kind, ev.amount) : { field: 'cardTransactionId', message: 'no longer exists' };
  if (!tx || problem) {
    emu.log({ kind: 'card', message: `${ev.kind} ${ev.id} dropped: ${problem!.field} ${problem!.message}` });
    return;
  }
  const batch = new LedgerBatch(emu);
  if (ev.kind === 'clearing') clear(emu, tx, ev.amount!, batch);
  else if (ev.kind === 'authorization_advice') advise(emu, tx, ev.amount!, batch);
  else if (ev.kind === 'return') refund(tx, ev.amount!, batch);
  else reverseReturn(emu, tx, batch);
  tx.lastEventAt = emu.iso();
  publish(emu, tx, batch);
}
