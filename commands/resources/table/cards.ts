/** `svc cards list|get|create|update` (`svc cards reveal` is svc's own verb, commands/cards/). */
import type { OpFlag, Operation } from '../operation.js';
import { LIST_FLAGS, SORT } from './shared.js';

const card = { syntax: '<cardId>', help: 'Card:<uuid>', id: 'Card' };
const maxSpend = (help: string): OpFlag => ({
  syntax: '--max-spend-per-transaction <amount>',
  help: `${help}, in the smallest unit of the card's currency`,
  type: 'int',
  min: 1,
  body: 'maxSpendPerTransaction',
});
const fundingSources = (help: string, required: boolean): OpFlag => ({
  syntax: '--funding-sources <list>',
  help: `comma-separated internal account IDs${help}`,
  type: 'list',
  id: 'InternalAccount',
  required,
  body: 'fundingSources',
});

export const cards: Operation[] = [
  {
    noun: 'cards',
    verb: 'list',
    summary: 'list cards',
    method: 'GET',
    path: '/cards',
    list: true,
    flags: [
      {
        syntax: '--cardholder-id <id>',
        help: 'filter by cardholder (Customer:<uuid>)',
        id: 'Customer',
        query: 'cardholderId',
      },
      { syntax: '--account-id <id>', help: 'filter by a funding account', id: 'InternalAccount', query: 'accountId' },
      { syntax: '--platform-card-id <id>', help: 'filter by platform card ID', query: 'platformCardId' },
      {
        syntax: '--state <state>',
        help: 'filter by state',
        enum: ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'],
        query: 'state',
      },
      ...LIST_FLAGS,
      SORT,
    ],
    examples: ['--cardholder-id Customer:<uuid> --state ACTIVE'],
  },
  {
    noun: 'cards',
    verb: 'get',
    summary: "get a card's details",
    method: 'GET',
    path: '/cards/{cardId}',
    args: [card],
    examples: ['Card:<uuid>'],
  },
  {
    noun: 'cards',
    verb: 'create',
    summary: 'issue a virtual card',
    method: 'POST',
    path: '/cards',
    flags: [
      {
        syntax: '--cardholder-id <id>',
        help: 'the cardholder (Customer:<uuid>)',
        id: 'Customer',
        required: true,
        body: 'cardholderId',
      },
      fundingSources(', in priority order', true),
      { syntax: '--form <form>', help: 'card form', enum: ['VIRTUAL'], default: 'VIRTUAL', body: 'form' },
      { syntax: '--platform-card-id <id>', help: "your platform's ID for the card", body: 'platformCardId' },
      maxSpend('largest amount per transaction'),
    ],
    examples: [
      '--cardholder-id Customer:<uuid> --funding-sources InternalAccount:<uuid> --max-spend-per-transaction 5000',
    ],
  },
  {
    noun: 'cards',
    verb: 'update',
    summary: 'freeze, unfreeze or close a card, replace its funding sources or set its spending limit',
    method: 'PATCH',
    path: '/cards/{cardId}',
    args: [card],
    signed: true,
    flags: [
      { syntax: '--state <state>', help: 'target state', enum: ['ACTIVE', 'FROZEN', 'CLOSED'], body: 'state' },
      fundingSources(' (replaces the whole list)', false),
      maxSpend('set the largest amount per transaction'),
      {
        syntax: '--clear-max-spend-per-transaction',
        help: 'remove the per-transaction limit',
        type: 'flag',
        value: null,
        body: 'maxSpendPerTransaction',
      },
    ],
    rules: [
      {
        atLeastOne: [
          '--state',
          '--funding-sources',
          '--max-spend-per-transaction',
          '--clear-max-spend-per-transaction',
        ],
      },
      { atMostOne: ['--max-spend-per-transaction', '--clear-max-spend-per-transaction'] },
      // Closing is final: nothing else about the card changes with it.
      {
        given: '--state',
        is: '^CLOSED$',
        forbids: ['--funding-sources', '--max-spend-per-transaction', '--clear-max-spend-per-transaction'],
      },
    ],
    examples: ['Card:<uuid> --state FROZEN', 'Card:<uuid> --max-spend-per-transaction 10000'],
  },
];
