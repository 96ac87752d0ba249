/**
 * What a card transaction does to its funding source, through the accounts' ledger (so every
 * change emits INTERNAL_ACCOUNT.BALANCE_UPDATED as payments do):
 * - a pull holds the money at once (out of `balance`, still in `totalBalance`) and takes it on its
 *   confirmation; a credit adds the money on its confirmation;
 * - the confirmation comes at once, or after the 005 delay, or reports FAILED (006): a failed pull
 *   gives the held money back, a failed credit adds nothing, and the transaction is EXCEPTION;
 * - money given back (an expired or shrunk authorization) is released from a pull still pending
 *   first, else credited.
 * Every change of a transaction is published as CARD_TRANSACTION.<its status> with the whole
 * CardTransaction (the description's card-transaction webhook).
 */
import { bySuffix } from '../../../service/suffix-table.js';
import { CARD_AUTHORIZATION, type CardAuthorizationOutcome } from '../../../service/card-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { LedgerBatch } from '../accounts/ledger.js';
import { accounts } from '../accounts/accounts.js';
import { cardTransactions, renderCardTransaction, type CardTxRec, type Movement } from './records.js';

export function outcomeOf(tx: Pick<CardTxRec, 'merchant'>): CardAuthorizationOutcome {
  return bySuffix(CARD_AUTHORIZATION, tx.merchant.descriptor);
}

export function available(emu: EmulatorContext, accountId: string): number {
  return emu.table(accounts).get(accountId)?.balance ?? 0;
}

/** Saves the transaction, commits its balance moves and emits its webhook; then runs confirmations due now. */
export function publish(emu: EmulatorContext, tx: CardTxRec, batch: LedgerBatch): void {
  tx.updatedAt = emu.iso();
  emu.table(cardTransactions).set(tx.id, tx);
  batch.commit();
  emu.outbox.emit(`CARD_TRANSACTION.${tx.status}`, renderCardTransaction(tx));
  confirmDue(emu, tx.id);
}

function confirm(tx: CardTxRec, m: Movement, batch: LedgerBatch): void {
  delete m.dueMs;
  if (outcomeOf(tx).confirmation === 'FAILED') {
    m.state = 'FAILED';
    if (m.held > 0) batch.release(tx.accountId, m.held);
    tx.status = 'EXCEPTION';
  } else {
    m.state = 'CONFIRMED';
    if (m.kind === 'PULL' && m.held > 0) batch.settle(tx.accountId, m.held);
    if (m.kind === 'CREDIT') batch.credit(tx.accountId, m.amount);
  }
  m.held = 0;
}

/**
 * Starts a movement. A pull beyond the available balance fails at once (a post-hoc pull the balance
 * no longer covers: EXCEPTION). A confirmation due now is applied here, before the step's webhook,
 * except a failing one, which is its own step after it (the pull succeeded, then its confirmation failed).
 */
export function move(emu: EmulatorContext, tx: CardTxRec, kind: Movement['kind'], amount: number, batch: LedgerBatch) {
  const m: Movement = { kind, amount, state: 'PENDING', held: 0 };
  tx.movements.push(m);
  if (kind === 'PULL') {
    if (available(emu, tx.accountId) < amount) {
      m.state = 'FAILED';
      tx.status = 'EXCEPTION';
      return;
    }
    batch.hold(tx.accountId, amount);
    m.held = amount;
  }
  const outcome = outcomeOf(tx);
  if (outcome.confirmation === 'CONFIRMED' && outcome.confirmAfterMs === 0) confirm(tx, m, batch);
  else m.dueMs = emu.now() + outcome.confirmAfterMs;
  if (m.dueMs !== undefined && m.dueMs > emu.now()) armConfirmation(emu, tx.id, m.dueMs);
}

/** Gives back money an authorization no longer needs: released from pending pulls first, else credited. */
export function giveBack(tx: CardTxRec, amount: number, batch: LedgerBatch): void {
  let left = amount;
  for (const m of [...tx.movements].reverse()) {
    if (left === 0) break;
    if (m.kind !== 'PULL' || m.state !== 'PENDING' || m.held === 0) continue;
    const take = Math.min(m.held, left);
    batch.release(tx.accountId, take);
    m.held -= take;
    left -= take;
  }
  if (left > 0) batch.credit(tx.accountId, left);
}

/** Applies every confirmation that is due, each as its own published change. */
function confirmDue(emu: EmulatorContext, id: string): void {
  const tx = emu.table(cardTransactions).get(id);
  if (!tx) return;
  for (const m of tx.movements) {
    if (m.state !== 'PENDING' || m.dueMs === undefined || m.dueMs > emu.now()) continue;
    const batch = new LedgerBatch(emu);
    confirm(tx, m, batch);
    tx.lastEventAt = emu.iso();
    publish(emu, tx, batch);
    return; // publish ran confirmDue again for the rest
  }
}

function armConfirmation(emu: EmulatorContext, id: string, dueMs: number): void {
  emu.later(dueMs - emu.now(), () => {
    try {
      confirmDue(emu, id);
    } catch (error) {
      // A timer has no request to answer: log, never throw into the clock.
      emu.log({ kind: 'error', message: `${id}: ${(error as Error).message}` });
    }
  });
}

/** After a restart: re-arm the confirmations still pending. */
export function resumeConfirmations(emu: EmulatorContext): void {
  for (const tx of emu.table(cardTransactions).values()) {
    for (const m of tx.movements)
      if (m.state === 'PENDING' && m.dueMs !== undefined) armConfirmation(emu, tx.id, m.dueMs);
  }
}
