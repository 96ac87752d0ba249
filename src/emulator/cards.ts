/**
 * Cards and the spec's card state machine. POST /cards issues a card in PROCESSING; shortly after,
 * the issuer accepts it (ACTIVE) or rejects it (CLOSED, ISSUER_REJECTED). Which one is fixed when
 * the card is created: `reject` when the emulator runs with cardIssuance 'reject'
 * (--card-issuance reject) or the cardholder's fullName ends in 004 (a name that is still KYC
 * APPROVED), otherwise `accept`. PATCH moves ACTIVE and FROZEN both ways and closes from any state
 * (CLOSED_BY_PLATFORM); every move emits CARD.STATE_CHANGE with the post-change card, and a
 * changed fundingSources array emits CARD.FUNDING_SOURCE_CHANGE with the full card.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { badRequest, conflict, invalidInput, notFound } from './errors.js';
import { ownedListRoute, type Route } from './router.js';
import type { CardRec, CardState, CustomerRec } from './state.js';
import { Fields, ID_PATTERNS } from './validation.js';

const CARD_REJECT_SUFFIX = '004';

function renderCard(card: CardRec): Record<string, unknown> {
  const { pan: _pan, cvc: _cvc, issuance: _issuance, ...visible } = card;
  return visible;
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
  const card = emu.state.cards.get(id);
  if (!card) throw notFound('Card', id);
  return card;
}

/** Each id must be an internal account of the cardholder; every offender is listed. */
function checkFundingSources(emu: EmulatorContext, cardholderId: string, ids: string[]): void {
  const errors = ids.flatMap((id, i) => {
    const account = emu.state.accounts.get(id);
    if (account && account.customerId === cardholderId) return [];
    return [{ field: `fundingSources[${i}]`, message: `${id} is not an internal account of cardholder ${cardholderId}` }];
  });
  if (errors.length > 0) throw invalidInput(errors);
}

function emitState(emu: EmulatorContext, card: CardRec): void {
  emu.outbox.emit('CARD.STATE_CHANGE', renderCard(card));
}

function moveTo(emu: EmulatorContext, card: CardRec, state: CardState, reason?: CardRec['stateReason']): void {
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
    const current = emu.state.cards.get(card.id);
    if (!current || current.state !== 'PROCESSING') return; // closed meanwhile
    if (current.issuance === 'accept') moveTo(emu, current, 'ACTIVE');
    else moveTo(emu, current, 'CLOSED', 'ISSUER_REJECTED');
  });
}

export function insertCard(emu: EmulatorContext, holder: CustomerRec, fundingSources: string[], state: CardState): CardRec {
  const now = emu.iso();
  const pan = luhnPan();
  const card: CardRec = {
    id: `Card:${randomUUID()}`,
    cardholderId: holder.id,
    state,
    brand: 'VISA',
    form: 'VIRTUAL',
    last4: pan.slice(-4),
    expMonth: randomInt(1, 13),
    expYear: new Date().getUTCFullYear() + 3,
    fundingSources,
    currency: 'USD',
    processorRef: `proc_${randomBytes(8).toString('hex')}`,
    issuerRef: `iss_${randomBytes(8).toString('hex')}`,
    createdAt: now,
    updatedAt: now,
    pan,
    cvc: String(randomInt(100, 1000)),
    issuance: emu.opts.cardIssuance === 'reject' || (holder.fullName ?? '').endsWith(CARD_REJECT_SUFFIX) ? 'reject' : 'accept',
  };
  emu.state.cards.set(card.id, card);
  emu.changed();
  return card;
}

export const cardRoutes: Route[] = [
  {
    method: 'POST',
    path: '/cards',
    handler(req, emu) {
      const f = new Fields(req.json());
      const cardholderId = f.string('cardholderId', { required: true, pattern: ID_PATTERNS.customer });
      const fundingSources = f.stringArray('fundingSources', { required: true, pattern: ID_PATTERNS.account, minItems: 1, maxItems: 10 });
      f.string('form', { enum: ['VIRTUAL'] });
      f.string('currency', { enum: ['USD'] });
      f.done();
      const holder = emu.state.customers.get(cardholderId!);
      if (!holder) throw notFound('Customer', cardholderId!, 'USER_NOT_FOUND');
      if (holder.kycStatus !== 'APPROVED') {
        throw badRequest('CARDHOLDER_KYC_NOT_APPROVED', `Cardholder ${holder.id} has kycStatus ${holder.kycStatus ?? holder.kybStatus}; a card needs APPROVED`);
      }
      checkFundingSources(emu, holder.id, fundingSources!);
      const card = insertCard(emu, holder, fundingSources!, 'PROCESSING');
      scheduleIssuance(emu, card);
      return { status: 201, body: renderCard(card) };
    },
  },
  ownedListRoute('/cards', 'cardholderId', ID_PATTERNS.customer, (emu) => emu.state.cards.values(), (c) => c.cardholderId, renderCard),
  { method: 'GET', path: '/cards/:id', handler: (req, emu) => ({ status: 200, body: renderCard(getCard(emu, req.params.id!)) }) },
  {
    method: 'PATCH',
    path: '/cards/:id',
    handler(req, emu) {
      const card = getCard(emu, req.params.id!);
      const f = new Fields(req.json());
      const state = f.string('state', { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] }) as CardState | undefined;
      const fundingSources = f.stringArray('fundingSources', { pattern: ID_PATTERNS.account, minItems: 1, maxItems: 10 });
      if (!f.has('state') && !f.has('fundingSources')) f.add('state', 'give state and/or fundingSources to change');
      f.done();
      if (fundingSources) checkFundingSources(emu, card.cardholderId, fundingSources);
      if (card.state === 'CLOSED') throw conflict('CARD_ALREADY_CLOSED', `Card ${card.id} is closed; issue a new card`);
      if ((state === 'ACTIVE' || state === 'FROZEN') && card.state === 'PROCESSING') {
        throw conflict('INVALID_STATE_TRANSITION', `Card ${card.id} is still PROCESSING; it cannot become ${state} until the issuer accepts it`);
      }
      if (fundingSources && fundingSources.join('\n') !== card.fundingSources.join('\n')) {
        card.fundingSources = [...fundingSources];
        card.updatedAt = emu.iso();
        emu.outbox.emit('CARD.FUNDING_SOURCE_CHANGE', renderCard(card));
        emu.changed();
      }
      if (state === 'CLOSED') moveTo(emu, card, 'CLOSED', 'CLOSED_BY_PLATFORM');
      else if (state && state !== card.state) moveTo(emu, card, state);
      return { status: 200, body: renderCard(card) };
    },
  },
];
