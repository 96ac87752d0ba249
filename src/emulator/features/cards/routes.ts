/** Card issuance, list, get, and PATCH (freeze, unfreeze, close, funding sources). */
import { idPattern } from '../../../service/identifiers.js';
import { badRequest, conflict, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { ownedListRoute, type Route } from '../../kernel/router.js';
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
    handler(req, emu) {
      const f = new Fields(req.json());
      const cardholderId = f.string('cardholderId', { required: true, pattern: idPattern('Customer') });
      const fundingSources = f.stringArray('fundingSources', {
        required: true,
        pattern: idPattern('InternalAccount'),
        minItems: 1,
        maxItems: 10,
      });
      f.string('form', { enum: ['VIRTUAL'] });
      f.string('currency', { enum: ['USD'] });
      f.done();
      const holder = emu.table(customers).get(cardholderId!);
      if (!holder) throw notFound('Customer', cardholderId!, 'USER_NOT_FOUND');
      if (holder.kycStatus !== 'APPROVED') {
        throw badRequest(
          'CARDHOLDER_KYC_NOT_APPROVED',
          `Cardholder ${holder.id} has kycStatus ${holder.kycStatus ?? holder.kybStatus}; a card needs APPROVED`,
        );
      }
      checkFundingSources(emu, holder.id, fundingSources!);
      const card = insertCard(emu, holder, fundingSources!, 'PROCESSING');
      scheduleIssuance(emu, card);
      return { status: 201, body: renderCard(card) };
    },
  },
  ownedListRoute(
    '/cards',
    'cardholderId',
    idPattern('Customer'),
    (emu) => emu.table(cards).values(),
    (c) => c.cardholderId,
    renderCard,
  ),
  {
    method: 'GET',
    path: '/cards/:id',
    handler: (req, emu) => ({ status: 200, body: renderCard(getCard(emu, req.params.id!)) }),
  },
  {
    method: 'PATCH',
    path: '/cards/:id',
    handler(req, emu) {
      const card = getCard(emu, req.params.id!);
      const f = new Fields(req.json());
      const state = f.string('state', { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] }) as CardState | undefined;
      const fundingSources = f.stringArray('fundingSources', {
        pattern: idPattern('InternalAccount'),
        minItems: 1,
        maxItems: 10,
      });
      if (!f.has('state') && !f.has('fundingSources')) f.add('state', 'give state and/or fundingSources to change');
      f.done();
      if (fundingSources) checkFundingSources(emu, card.cardholderId, fundingSources);
      if (card.state === 'CLOSED') throw conflict('CARD_ALREADY_CLOSED', `Card ${card.id} is closed; issue a new card`);
      if ((state === 'ACTIVE' || state === 'FROZEN') && card.state === 'PROCESSING') {
        throw conflict(
          'INVALID_STATE_TRANSITION',
          `Card ${card.id} is still PROCESSING; it cannot become ${state} until the issuer accepts it`,
        );
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
