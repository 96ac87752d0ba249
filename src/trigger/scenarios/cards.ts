/** Trigger scenarios of cards: the card state machine and card transactions. */
import { CARD_AUTHORIZATION, suffixRow } from '../../service/index.js';
import { named, otherEnding, type Scenario } from '../scenario.js';

/** Card state machine rows (spec "States and transitions: Card"). `004` is the emulator's own rejection magic. */
export function cards(): Scenario[] {
  const card = (
    name: string,
    field: string,
    value: string,
    expect: Record<string, string>,
    spec: string,
    delayMs = 0,
  ): Scenario => ({
    name,
    area: 'card',
    magic: { field, value },
    expect,
    spec,
    recipe: 'card',
    delayMs,
  });
  // The spec gives no issuance time; the emulator's issuer answers after a second.
  const ISSUANCE_MS = 1000;
  return [
    card(
      'card.issued',
      'cardholder fullName',
      'Carla Cardholder',
      { state: 'ACTIVE' },
      'PROCESSING → ACTIVE when the issuer accepts',
      ISSUANCE_MS,
    ),
    card(
      'card.issuer-rejected',
      'cardholder fullName',
      named('Carl Rejected', '004'),
      { state: 'CLOSED', stateReason: 'ISSUER_REJECTED' },
      "PROCESSING → CLOSED (ISSUER_REJECTED); the 004 suffix is the embedded emulator's, the remote sandbox has no such value",
      ISSUANCE_MS,
    ),
    card('card.frozen', 'state', 'FROZEN', { state: 'FROZEN' }, 'ACTIVE → FROZEN'),
    card('card.unfrozen', 'state', 'ACTIVE', { state: 'ACTIVE' }, 'FROZEN → ACTIVE'),
    card(
      'card.closed',
      'state',
      'CLOSED',
      { state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' },
      'any state → CLOSED (CLOSED_BY_PLATFORM)',
    ),
    card(
      'card.funding-changed',
      'fundingSources',
      "the cardholder's EUR account",
      { state: 'ACTIVE' },
      'fundingSources updated; state unchanged; CARD.FUNDING_SOURCE_CHANGE',
    ),
  ];
}

/**
 * Card-transaction simulation (the description's simulate/authorization table, by the last three
 * characters of merchant.descriptor), and the lifecycle steps after an approved authorization of
 * 1,000 (a clearing below it, a clearing and a return of all of it). A decline makes no
 * CardTransaction: observed as `cardTransaction none` with nothing pulled.
 */
export function cardTransactions(): Scenario[] {
  const make = (
    name: string,
    magic: Scenario['magic'],
    expect: Record<string, string>,
    spec: string,
    delayMs = 0,
  ): Scenario => ({
    name: `card-transaction.${name}`,
    area: 'card-transaction',
    magic,
    expect,
    spec,
    recipe: 'card-transaction',
    delayMs,
  });
  const descriptor = (value: string) => ({ field: CARD_AUTHORIZATION.field, value });
  const row = (value: string) => suffixRow(CARD_AUTHORIZATION, value);
  const approved = otherEnding(CARD_AUTHORIZATION, 'BLUE BOTTLE COFFEE SF');
  const delayed = 'SLOW PULL CAFE 005';
  return [
    make('approved', descriptor(approved), { status: 'AUTHORIZED', pulled: '1000' }, row(approved).spec),
    make(
      'declined-funds',
      descriptor('AMAZON RETAIL US-002'),
      { cardTransaction: 'none', pulled: '0' },
      row('x002').spec,
    ),
    make('declined-paused', descriptor('CORNER STORE 003'), { cardTransaction: 'none', pulled: '0' }, row('x003').spec),
    make(
      'delayed-pull',
      descriptor(delayed),
      { status: 'AUTHORIZED', pendingPulls: '0' },
      row(delayed).spec,
      row(delayed).outcome.confirmAfterMs,
    ),
    make('exception', descriptor('UBER EATS 006'), { status: 'EXCEPTION', pulled: '0' }, row('x006').spec),
    make(
      'partially-settled',
      { field: 'clearing.amount', value: '400' },
      { status: 'PARTIALLY_SETTLED', settledAmount: '400' },
      'a clearing below the authorized amount: PARTIALLY_SETTLED, more clearings expected',
    ),
    make(
      'refunded',
      { field: 'return.amount', value: '1000' },
      { status: 'REFUNDED', refundedAmount: '1000' },
      'a return of the whole net settled amount: REFUNDED',
    ),
  ];
}
