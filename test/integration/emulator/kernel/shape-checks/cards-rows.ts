// Cards and card transactions.
import { id, type Row, without } from './row.js';

const card = { cardholderId: 'x', form: 'VIRTUAL', fundingSources: ['y'] };
const simulate = (kind: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: `/sandbox/cards/${id('Card')}/simulate/${kind}`,
  body,
  field,
  rule,
});
const authorization = {
  amount: 100,
  currency: { code: 'USD' },
  merchant: { descriptor: 'Shop' },
};

export const CARD_ROWS: Record<string, Row[]> = {
  cards: [
    {
      method: 'POST',
      path: '/cards',
      body: without(card, 'cardholderId'),
      field: 'cardholderId',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/cards',
      body: without(card, 'form'),
      field: 'form',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/cards',
      body: { ...card, form: 'PLASTIC' },
      field: 'form',
      rule: 'enum',
    },
    {
      method: 'POST',
      path: '/cards',
      body: without(card, 'fundingSources'),
      field: 'fundingSources',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/cards',
      body: { ...card, fundingSources: [] },
      field: 'fundingSources',
      rule: 'minItems',
    },
    {
      method: 'POST',
      path: '/cards',
      body: { ...card, maxSpendPerTransaction: 0 },
      field: 'maxSpendPerTransaction',
      rule: 'minimum',
    },
    {
      method: 'PATCH',
      path: `/cards/${id('Card')}`,
      body: { state: 'MELTED' },
      field: 'state',
      rule: 'enum',
    },
    {
      method: 'PATCH',
      path: `/cards/${id('Card')}`,
      body: { fundingSources: [] },
      field: 'fundingSources',
      rule: 'minItems',
    },
  ],
  'card-transactions': [
    simulate('authorization', without(authorization, 'merchant'), 'merchant', 'required'),
    simulate('authorization', { ...authorization, merchant: {} }, 'merchant.descriptor', 'required'),
    simulate(
      'authorization',
      { ...authorization, merchant: { descriptor: 'Shop', country: 'XX' } },
      'merchant.country',
      'format',
    ),
    simulate('authorization', without(authorization, 'amount'), 'amount', 'required'),
    simulate('authorization', without(authorization, 'currency'), 'currency', 'required'),
    simulate('balance_inquiry', {}, 'merchant', 'required'),
    simulate('clearing', { amount: 1 }, 'cardTransactionId', 'required'),
    simulate('clearing', { cardTransactionId: 't' }, 'amount', 'required'),
    simulate('return', { cardTransactionId: 't' }, 'amount', 'required'),
    simulate('return_reversal', {}, 'cardTransactionId', 'required'),
  ],
};
