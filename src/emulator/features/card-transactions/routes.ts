/**
 * The ten `POST /sandbox/cards/{id}/simulate/<kind>` operations. Each checks the card (404), its
 * body (400 listing every bad field) and, for a step on an existing transaction, that the
 * transaction is the card's (404 TRANSACTION_NOT_FOUND) and can take the step (400 naming the
 * field, rules.ts); then answers 202 `{issuerTransactionToken}` and leaves the work to the card
 * event, which arrives CARD_EVENT_DELAY_MS later on the emulator clock (the description: "delivered
 * asynchronously", never in the answer).
 */
import { newUuid } from '../../kernel/ids.js';
import { idPattern } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { MAX_AMOUNT } from '../accounts/currencies.js';
import { getCard, type CardRec } from '../cards/cards.js';
import { cardEvents, requireCardTransaction, type CardEvent, type Merchant, type SimKind } from './records.js';
import { whyNot } from './rules.js';
import { applyEvent } from './steps.js';

/** The emulator's issuer answers each simulated event a second after the call (the description gives no time). */
export const CARD_EVENT_DELAY_MS = 1000;

/**
 * The body's shape (merchant and its descriptor, amount, currency, cardTransactionId where each kind
 * requires them; the merchant's ISO country) is checked before this runs; read here are the
 * emulator's rules beyond it: lengths, the MCC's four digits, amounts above 0, the card's currency.
 */
function merchantOf(f: Fields): Merchant | undefined {
  const m = f.object('merchant');
  if (!m) return undefined;
  const descriptor = m.string('descriptor', { minLength: 1, maxLength: 255 });
  const mcc = m.string('mcc', { pattern: /^\d{4}$/ });
  const country = m.string('country');
  return descriptor === undefined
    ? undefined
    : { descriptor, ...(mcc ? { mcc } : {}), ...(country ? { country } : {}) };
}

/** The steps on an existing transaction (the others open one). */
const ON_TRANSACTION: ReadonlySet<SimKind> = new Set(['clearing', 'return', 'return_reversal', 'authorization_advice']);

/** What each kind reads from its body (the description's Sandbox*Request schemas). */
function readBody(
  kind: SimKind,
  f: Fields,
  card: CardRec,
): Pick<CardEvent, 'amount' | 'merchant' | 'cardTransactionId'> {
  if (kind === 'balance_inquiry') return { merchant: merchantOf(f), amount: 0 };
  if (!ON_TRANSACTION.has(kind)) {
    const amount = f.integer('amount', { min: 1, max: MAX_AMOUNT });
    const currency = f.object('currency');
    currency?.string('code', { required: true, enum: [card.currency] });
    return { amount, merchant: merchantOf(f) };
  }
  const cardTransactionId = f.string('cardTransactionId', { pattern: idPattern('CardTransaction') });
  if (kind === 'return_reversal') return { cardTransactionId };
  // A clearing of 0 is the authorization's expiry; every other amount is positive.
  const amount = f.integer('amount', { min: kind === 'clearing' ? 0 : 1, max: MAX_AMOUNT });
  return { cardTransactionId, amount };
}

function schedule(emu: EmulatorContext, ev: CardEvent): void {
  emu.later(ev.dueMs - emu.now(), () => {
    if (!emu.table(cardEvents).has(ev.id)) return;
    emu.table(cardEvents).delete(ev.id);
    try {
      applyEvent(emu, ev);
    } catch (error) {
      // A timer has no request to answer: log, never throw into the clock.
      emu.log({ kind: 'error', message: `card event ${ev.id}: ${(error as Error).message}` });
    }
  });
}

/** After a restart: the accepted events not yet processed arrive as planned (or at once, if overdue). */
export function resumeEvents(emu: EmulatorContext): void {
  for (const ev of emu.table(cardEvents).values()) schedule(emu, ev);
}

function simulate(kind: SimKind): Route {
  return {
    method: 'POST',
    path: `/sandbox/cards/:id/simulate/${kind}`,
    permission: 'TRANSACT',
    permissionRefusal: 403,
    handler(req: Req, emu) {
      const card = getCard(emu, req.params.id!);
      const f = new Fields(req.json());
      const body = readBody(kind, f, card);
      f.done();
      if (body.cardTransactionId !== undefined) {
        const tx = requireCardTransaction(emu, body.cardTransactionId);
        if (tx.cardId !== card.id) throw notFound('CardTransaction', tx.id, 'TRANSACTION_NOT_FOUND');
        const refusal = whyNot(tx, kind, body.amount);
        if (refusal) throw invalidInput([refusal], refusal.message);
      }
      const ev: CardEvent = {
        id: newUuid(),
        kind,
        cardId: card.id,
        dueMs: emu.now() + CARD_EVENT_DELAY_MS,
        ...body,
      };
      emu.table(cardEvents).set(ev.id, ev);
      schedule(emu, ev);
      return { status: 202, body: { issuerTransactionToken: ev.id } };
    },
  };
}

export const simulateRoutes: Route[] = (
  [
    'authorization',
    'clearing',
    'return',
    'balance_inquiry',
    'authorization_advice',
    'return_reversal',
    'credit_authorization',
    'financial_authorization',
    'financial_credit_authorization',
    'credit_authorization_advice',
  ] as const
).map(simulate);
