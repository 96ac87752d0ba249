/**
 * Cards and the spec's card state machine. POST /cards issues a card in PROCESSING; shortly after,
 * the issuer accepts it (ACTIVE) or rejects it (CLOSED, ISSUER_REJECTED). Which one is fixed when
 * the card is created: `reject` when the emulator runs with cardIssuance 'reject'
 * (--card-issuance reject) or the cardholder's fullName ends in 004 (a name that is still KYC
 * APPROVED), otherwise `accept`. PATCH moves ACTIVE and FROZEN both ways and closes from any state
 * (CLOSED_BY_PLATFORM); every move emits CARD.STATE_CHANGE with the post-change card, and a
 * changed fundingSources array emits CARD.FUNDING_SOURCE_CHANGE with the full card.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { invalidInput, notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';
import { accounts } from '../accounts/accounts.js';
import type { CustomerRec } from '../customers/customers.js';
import { newId } from '../../kernel/ids.js';

/** The emulator's own magic (not the spec's): a cardholder fullName ending in 004 gets a rejected card. */
const CARD_REJECT_SUFFIX = '004';

export type CardState = 'PROCESSING' | 'ACTIVE' | 'FROZEN' | 'CLOSED';

export interface CardRec {
  id: string;
  cardholderId: string;
  /** The platform's own reference, as given at creation. */
  platformCardId?: string;
  state: CardState;
  stateReason?: 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM';
  brand: string;
  form: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fundingSources: string[];
  /** Per-transaction cap in the card currency's smallest unit; null when unset (absent in older state files). */
  maxSpendPerTransaction?: number | null;
  currency: string;
  processorRef: string;
  issuerRef: string;
  createdAt: string;
  updatedAt: string;
  /** Secret: only ever shown on the one-use reveal page. */
  pan: string;
  cvc: string;
  /** How the issuer will decide a PROCESSING card (fixed at creation so a restart keeps it). */
  issuance: 'accept' | 'reject';
}

export const cards = durableTable<CardRec>('cards', {
  id: 'string',
  cardholderId: 'string',
  platformCardId: 'string?',
  state: 'string',
  stateReason: 'string?',
  brand: 'string',
  form: 'string',
  last4: 'string',
  expMonth: 'number',
  expYear: 'number',
  fundingSources: 'array',
  maxSpendPerTransaction: 'any',
  currency: 'string',
  processorRef: 'string',
  issuerRef: 'string',
  createdAt: 'string',
  updatedAt: 'string',
  pan: 'string',
  cvc: 'string',
  issuance: 'string',
});

/** The description's Card: `maxSpendPerTransaction` is always there (null when unset). */
export function renderCard(card: CardRec): Record<string, unknown> {
  const { pan: _pan, cvc: _cvc, issuance: _issuance, ...visible } = card;
  return { ...visible, maxSpendPerTransaction: card.maxSpendPerTransaction ?? null };
}

function luhnPan(): string {
  let digits = '4';
  while (digits.length < 15) digits += String(randomInt(10));
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = Number(digits[14 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits + String((10 - (sum % 10)) % 10);
}

export function getCard(emu: EmulatorContext, id: string): CardRec {
  const card = emu.table(cards).get(id);
  if (!card) throw notFound('Card', id);
  return card;
}

/** Each id must be an internal account of the cardholder; every offender is listed. */
export function checkFundingSources(emu: EmulatorContext, cardholderId: string, ids: string[]): void {
  const errors = ids.flatMap((id, i) => {
    const account = emu.table(accounts).get(id);
    if (account && account.customerId === cardholderId) return [];
    return [
      { field: `fundingSources[${i}]`, message: `${id} is not an internal account of cardholder ${cardholderId}` },
    ];
  });
  if (errors.length > 0) throw invalidInput(errors);
}

function emitState(emu: EmulatorContext, card: CardRec): void {
  emu.outbox.emit('CARD.STATE_CHANGE', renderCard(card));
}

export function moveTo(emu: EmulatorContext, card: CardRec, state: CardState, reason?: CardRec['stateReason']): void {
  card.state = state;
  if (reason) card.stateReason = reason;
  else delete card.stateReason;
  card.updatedAt = emu.iso();
  emitState(emu, card);
  emu.changed();
}

/** The issuer's decision on a PROCESSING card, after cardIssuanceDelayMs. */
export function scheduleIssuance(emu: EmulatorContext, card: CardRec): void {
  emu.later(emu.opts.cardIssuanceDelayMs, () => {
    const current = emu.table(cards).get(card.id);
    if (current?.state !== 'PROCESSING') return; // gone or closed meanwhile
    if (current.issuance === 'accept') moveTo(emu, current, 'ACTIVE');
    else moveTo(emu, current, 'CLOSED', 'ISSUER_REJECTED');
  });
}

/** What the platform chooses about a new card beyond its holder and funding. */
export interface CardOptions {
  platformCardId?: string;
  maxSpendPerTransaction?: number;
}

export function insertCard(
  emu: EmulatorContext,
  holder: CustomerRec,
  fundingSources: string[],
  state: CardState,
  options: CardOptions = {},
): CardRec {
  const now = emu.iso();
  const pan = luhnPan();
  const card: CardRec = {
    id: newId('Card'),
    cardholderId: holder.id,
    ...(options.platformCardId !== undefined ? { platformCardId: options.platformCardId } : {}),
    state,
    brand: 'VISA',
    form: 'VIRTUAL',
    last4: pan.slice(-4),
    expMonth: randomInt(1, 13),
    expYear: new Date(emu.now()).getUTCFullYear() + 3,
    fundingSources,
    maxSpendPerTransaction: options.maxSpendPerTransaction ?? null,
    currency: 'USD',
    processorRef: `proc_${randomBytes(8).toString('hex')}`,
    issuerRef: `iss_${randomBytes(8).toString('hex')}`,
    createdAt: now,
    updatedAt: now,
    pan,
    cvc: String(randomInt(100, 1000)),
    issuance:
      emu.opts.cardIssuance === 'reject' || (holder.fullName ?? '').endsWith(CARD_REJECT_SUFFIX) ? 'reject' : 'accept',
  };
  return emu.table(cards).set(card.id, card);
}
