/** Card issuance, list (filtered, sorted, paged), get, and PATCH (freeze, unfreeze, close, funding sources, spending cap). */
import { idPattern } from '../../../service/identifiers.js';
import { callerSees } from '../../kernel/agent-scope.js';
import { badRequest, conflict, invalidInput } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { customers } from '../customers/customers.js';
import {
  cards,
  checkFundingSources,
  getCard,
  insertCard,
  moveTo,
  renderCard,
  scheduleIssuance,
  type CardState,
} from './cards.js';

export const cardRoutes: Route[] = [
  {
    method: 'POST',
    path: '/cards',
    permission: 'MANAGE',
    handler(req, emu) {
      // The body's shape (required fields, form's enum, at least one funding source, a cap of at
      // least 1) is checked before this runs; read here are the emulator's rules beyond it.
      const f = new Fields(req.json());
      const cardholderId = f.string('cardholderId', { pattern: idPattern('Customer') });
      const platformCardId = f.string('platformCardId', { minLength: 1, maxLength: 255 });
      // Taken as the description allows, not kept: the emulator runs no 3-D Secure.
      f.string('threeDSecurePassword', { maxLength: 255 });
      const fundingSources = f.stringArray('fundingSources', { pattern: idPattern('InternalAccount'), maxItems: 10 });
      const maxSpendPerTransaction = f.integer('maxSpendPerTransaction');
      f.string('currency', { enum: ['USD'] });
      f.done();
      const holder = emu.table(customers).get(cardholderId!);
      // The description declares no 404 here: an unknown cardholder is a bad field.
      if (!holder) throw invalidInput([{ field: 'cardholderId', message: `Customer ${cardholderId} not found` }]);
      if (holder.kycStatus !== 'APPROVED') {
        throw badRequest(
          'CARDHOLDER_KYC_NOT_APPROVED',
          `Cardholder ${holder.id} has kycStatus ${holder.kycStatus ?? holder.kybStatus}; a card needs APPROVED`,
        );
      }
      checkFundingSources(emu, holder.id, fundingSources!);
      const card = insertCard(emu, holder, fundingSources!, 'PROCESSING', { platformCardId, maxSpendPerTransaction });
      scheduleIssuance(emu, card);
      return { status: 201, body: renderCard(card) };
    },
  },
  {
    method: 'GET',
    path: '/cards',
    permission: 'VIEW',
    handler(req, emu) {
      // The description's filters, newest first unless sortOrder=asc, paged; state's and
      // sortOrder's enums and limit's bounds are the description's, checked before this runs.
      const f = new Fields(Object.fromEntries(req.query));
      const cardholderId = f.string('cardholderId', { pattern: idPattern('Customer') });
      const accountId = f.string('accountId', { pattern: idPattern('InternalAccount') });
      const platformCardId = f.string('platformCardId');
      const state = f.string('state') as CardState | undefined;
      const sortOrder = f.string('sortOrder') ?? 'desc';
      const page = readPage(f);
      f.done();
      const sees = callerSees(emu, req);
      const rows = emu
        .table(cards)
        .filter(
          (c) =>
            sees(c) &&
            (!cardholderId || c.cardholderId === cardholderId) &&
            (!accountId || c.fundingSources.includes(accountId)) &&
            (!platformCardId || c.platformCardId === platformCardId) &&
            (!state || c.state === state),
        );
      // The table keeps issuance order.
      if (sortOrder === 'desc') rows.reverse();
      return { status: 200, body: pageOf(rows.map(renderCard), page) };
    },
  },
  {
    method: 'GET',
    path: '/cards/:id',
    permission: 'VIEW',
    handler: (req, emu) => ({ status: 200, body: renderCard(getCard(emu, req.params.id!)) }),
  },
  {
    method: 'PATCH',
    path: '/cards/:id',
    permission: 'MANAGE',
    handler(req, emu) {
      const card = getCard(emu, req.params.id!);
      const f = new Fields(req.json());
      // state's enum and at least one funding source are the description's, checked before this runs.
      const state = f.string('state') as CardState | undefined;
      const fundingSources = f.stringArray('fundingSources', { pattern: idPattern('InternalAccount'), maxItems: 10 });
      // A number sets the cap, null clears it, absence leaves it.
      const capGiven = f.raw('maxSpendPerTransaction') !== undefined;
      const cap = f.raw('maxSpendPerTransaction') === null ? null : f.integer('maxSpendPerTransaction', { min: 1 });
      if (!f.has('state') && !f.has('fundingSources') && !capGiven)
        f.add('state', 'give state, fundingSources and/or maxSpendPerTransaction to change');
      if (state === 'CLOSED') {
        if (f.has('fundingSources')) f.add('fundingSources', 'fundingSources cannot be changed with state CLOSED');
        if (capGiven) f.add('maxSpendPerTransaction', 'maxSpendPerTransaction cannot be changed with state CLOSED');
      }
      f.done();
      if (fundingSources) checkFundingSources(emu, card.cardholderId, fundingSources);
      if (card.state === 'CLOSED') {
        if (state === 'CLOSED') throw conflict('CARD_ALREADY_CLOSED', `Card ${card.id} is already closed`);
        if (state) throw conflict('INVALID_STATE_TRANSITION', `Card ${card.id} is closed; it cannot become ${state}`);
        throw conflict('CARD_NOT_MUTABLE', `Card ${card.id} is closed and can no longer change; issue a new card`);
      }
      if ((state === 'ACTIVE' || state === 'FROZEN') && card.state === 'PROCESSING') {
        throw conflict(
          'INVALID_STATE_TRANSITION',
          `Card ${card.id} is still PROCESSING; it cannot become ${state} until the issuer accepts it`,
        );
      }
      if (capGiven && cap !== undefined && cap !== (card.maxSpendPerTransaction ?? null)) {
        card.maxSpendPerTransaction = cap;
        card.updatedAt = emu.iso();
        emu.changed();
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
