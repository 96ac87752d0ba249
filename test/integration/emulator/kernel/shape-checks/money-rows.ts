// Accounts, crypto, payments, transactions, quotes and transfers.
import { get, id, post, type Row, without } from './row.js';

const quote = {
  source: { sourceType: 'ACCOUNT', accountId: 'x' },
  destination: { destinationType: 'ACCOUNT', accountId: 'y' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 100,
};
const quoteRow = (body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: '/quotes',
  body,
  field,
  rule,
});
const transfer = {
  source: { accountId: 'x' },
  destination: { accountId: 'y' },
  amount: 100,
};
const transferRow = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path,
  body,
  field,
  rule,
});
const fee = {
  internalAccountId: 'a',
  currency: 'USDC',
  cryptoNetwork: 'SOLANA',
  amount: 5,
  destinationAddress: 'd'.repeat(30),
};
const send = { quoteId: 'q', currencyCode: 'USD' };
const receive = {
  senderUmaAddress: '$a@b.test',
  customerId: 'c',
  receivingCurrencyCode: 'USD',
  receivingCurrencyAmount: 5,
};

export const MONEY_ROWS: Record<string, Row[]> = {
  accounts: [
    get('/customers/internal-accounts?type=SAVINGS', 'type', 'enum'),
    get('/platform/internal-accounts?type=SAVINGS', 'type', 'enum'),
    post(`/sandbox/internal-accounts/${id('InternalAccount')}/fund`, {}, 'amount', 'required'),
    post(`/sandbox/internal-accounts/${id('InternalAccount')}/fund`, { amount: 100_000_000_001 }, 'amount', 'maximum'),
  ],
  crypto: Object.keys(fee).map((name) => post('/crypto/estimate-withdrawal-fee', without(fee, name), name, 'required')),
  payments: [
    {
      method: 'POST',
      path: '/sandbox/send',
      body: without(send, 'quoteId'),
      field: 'quoteId',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/sandbox/send',
      body: without(send, 'currencyCode'),
      field: 'currencyCode',
      rule: 'required',
    },
    ...['senderUmaAddress', 'receivingCurrencyCode', 'receivingCurrencyAmount'].map(
      (name): Row => ({
        method: 'POST',
        path: '/sandbox/uma/receive',
        body: without(receive, name),
        field: name,
        rule: 'required',
      }),
    ),
  ],
  transactions: [
    {
      method: 'GET',
      path: '/transactions?status=DONE',
      field: 'status',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/transactions?type=SIDEWAYS',
      field: 'type',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/transactions?sortOrder=up',
      field: 'sortOrder',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/transactions?startDate=2020-02-30T00:00:00Z',
      field: 'startDate',
      rule: 'format',
    },
    {
      method: 'GET',
      path: '/transactions?endDate=tomorrow',
      field: 'endDate',
      rule: 'format',
    },
  ],
  quotes: [
    quoteRow(without(quote, 'source'), 'source', 'required'),
    quoteRow({ ...quote, source: {} }, 'source.sourceType', 'required'),
    quoteRow({ ...quote, source: { sourceType: 'CARD' } }, 'source.sourceType', 'enum'),
    quoteRow({ ...quote, source: { sourceType: 'ACCOUNT' } }, 'source.accountId', 'required'),
    quoteRow({ ...quote, source: { sourceType: 'REALTIME_FUNDING' } }, 'source.currency', 'required'),
    quoteRow(without(quote, 'destination'), 'destination', 'required'),
    quoteRow({ ...quote, destination: {} }, 'destination.destinationType', 'required'),
    quoteRow({ ...quote, destination: { destinationType: 'CARD' } }, 'destination.destinationType', 'enum'),
    quoteRow({ ...quote, destination: { destinationType: 'ACCOUNT' } }, 'destination.accountId', 'required'),
    quoteRow({ ...quote, destination: { destinationType: 'UMA_ADDRESS' } }, 'destination.umaAddress', 'required'),
    quoteRow(
      {
        ...quote,
        destination: { ...quote.destination, paymentRail: 'PIGEON' },
      },
      'destination.paymentRail',
      'enum',
    ),
    quoteRow(without(quote, 'lockedCurrencySide'), 'lockedCurrencySide', 'required'),
    quoteRow({ ...quote, lockedCurrencySide: 'BOTH' }, 'lockedCurrencySide', 'enum'),
    quoteRow(without(quote, 'lockedCurrencyAmount'), 'lockedCurrencyAmount', 'required'),
    quoteRow({ ...quote, lockedCurrencyAmount: 9_000_000_000_000_001 }, 'lockedCurrencyAmount', 'maximum'),
    quoteRow({ ...quote, remittanceInformation: 'r'.repeat(81) }, 'remittanceInformation', 'maxLength'),
    quoteRow({ ...quote, purposeOfPayment: 'FUN' }, 'purposeOfPayment', 'enum'),
  ],
  transfers: [
    ...['/transfer-in', '/transfer-out'].flatMap((path) => [
      transferRow(path, without(transfer, 'source'), 'source', 'required'),
      transferRow(path, { ...transfer, source: {} }, 'source.accountId', 'required'),
      transferRow(path, without(transfer, 'destination'), 'destination', 'required'),
      transferRow(path, { ...transfer, destination: {} }, 'destination.accountId', 'required'),
    ]),
    transferRow(
      '/transfer-out',
      { ...transfer, destination: { accountId: 'y', paymentRail: 'PIGEON' } },
      'destination.paymentRail',
      'enum',
    ),
    transferRow(
      '/transfer-out',
      { ...transfer, remittanceInformation: 'r'.repeat(81) },
      'remittanceInformation',
      'maxLength',
    ),
    transferRow('/transfer-out', { ...transfer, purposeOfPayment: 'FUN' }, 'purposeOfPayment', 'enum'),
  ],
  'quote execute and authorize': [
    post(`/quotes/${id('Quote')}/execute`, { scaFactor: 'TOTP' }, 'scaFactor', 'enum'),
    post(`/quotes/${id('Quote')}/execute`, { scaFactor: 'EMAIL' }, 'scaFactor', 'enum'),
    post(`/quotes/${id('Quote')}/authorize`, { code: '1', endUserIpAddress: 5 }, 'endUserIpAddress', 'type'),
  ],
  'transaction decisions': [
    post(`/transactions/${id('Transaction')}/approve`, { receiverCustomerInfo: 'x' }, 'receiverCustomerInfo', 'type'),
  ],
};
