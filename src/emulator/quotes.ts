/**
 * Real-time-funding quotes: the platform pays the returned payment instructions (in the sandbox,
 * with POST /sandbox/send) and the quote completes, or, to a UMA magic destination, goes as that
 * address says (uma.ts); such a quote must be in the address's currency. Only REALTIME_FUNDING sources are quoted:
 * executing account-funded quotes (POST /quotes/{id}/execute) is not emulated.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { badRequest, notFound } from './errors.js';
import { CURRENCIES, CURRENCY_CODES, MAX_AMOUNT, exchangeRate } from './money.js';
import type { Route } from './router.js';
import type { QuoteRec } from './state.js';
import { umaScenario } from './uma.js';
import { Fields, ID_PATTERNS, UMA_ADDRESS_PATTERN } from './validation.js';

const QUOTE_TTL_MS = 24 * 60 * 60 * 1000;

export interface QuoteRequest {
  sourceCurrency: string;
  destination: { destinationType: 'ACCOUNT'; accountId: string } | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string };
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  description?: string;
}

export function createQuote(emu: EmulatorContext, q: QuoteRequest): QuoteRec {
  const now = emu.now();
  const receivingCurrency = q.destination.destinationType === 'ACCOUNT'
    ? emu.state.accounts.get(q.destination.accountId)!.currency
    : q.destination.currency;
  const rate = exchangeRate(q.sourceCurrency, receivingCurrency);
  const sending = q.lockedCurrencySide === 'SENDING' ? q.lockedCurrencyAmount : Math.ceil(q.lockedCurrencyAmount / rate);
  const receiving = q.lockedCurrencySide === 'RECEIVING' ? q.lockedCurrencyAmount : Math.floor(q.lockedCurrencyAmount * rate);
  const id = `Quote:${randomUUID()}`;
  const reference = `SVC${randomBytes(5).toString('hex').toUpperCase()}`;
  const quote: QuoteRec = {
    id,
    status: 'PENDING',
    sendingCurrency: q.sourceCurrency,
    totalSendingAmount: sending,
    receivingCurrency,
    totalReceivingAmount: receiving,
    ...(q.destination.destinationType === 'ACCOUNT'
      ? { destinationAccountId: q.destination.accountId }
      : { destinationUmaAddress: q.destination.umaAddress }),
    expiresAtMs: now + QUOTE_TTL_MS,
    body: {
      createdAt: emu.iso(now),
      source: { sourceType: 'REALTIME_FUNDING', currency: q.sourceCurrency },
      destination: q.destination,
      lockedCurrencySide: q.lockedCurrencySide,
      lockedCurrencyAmount: q.lockedCurrencyAmount,
      exchangeRate: rate,
      feesIncluded: 0,
      ...(q.description ? { description: q.description } : {}),
      paymentInstructions: [{
        reference,
        instructionsNotes: `Include reference ${reference} with the payment. In the sandbox, pay with POST /sandbox/send.`,
        accountOrWalletInfo: { accountType: 'US_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', bankName: 'svc Emulator Sandbox Bank' },
      }],
    },
  };
  emu.state.quotes.set(id, quote);
  emu.changed();
  return quote;
}

export function renderQuote(emu: EmulatorContext, q: QuoteRec): Record<string, unknown> {
  return {
    id: q.id,
    status: q.status,
    ...q.body,
    expiresAt: emu.iso(q.expiresAtMs),
    sendingCurrency: CURRENCIES[q.sendingCurrency],
    receivingCurrency: CURRENCIES[q.receivingCurrency],
    totalSendingAmount: q.totalSendingAmount,
    totalReceivingAmount: q.totalReceivingAmount,
    ...(q.transactionId ? { transactionId: q.transactionId } : {}),
  };
}

export const quoteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/quotes',
    handler(req, emu) {
      const f = new Fields(req.json());
      const source = f.object('source', { required: true });
      source?.string('sourceType', { required: true, enum: ['REALTIME_FUNDING'] });
      const sourceCurrency = source?.string('currency', { required: true, enum: CURRENCY_CODES });
      const dest = f.object('destination', { required: true });
      const destinationType = dest?.string('destinationType', { required: true, enum: ['ACCOUNT', 'UMA_ADDRESS'] });
      const accountId = destinationType === 'ACCOUNT' ? dest?.string('accountId', { required: true, pattern: ID_PATTERNS.account }) : undefined;
      const umaAddress = destinationType === 'UMA_ADDRESS' ? dest?.string('umaAddress', { required: true, pattern: UMA_ADDRESS_PATTERN }) : undefined;
      const destCurrency = dest?.string('currency', { required: destinationType === 'UMA_ADDRESS', enum: CURRENCY_CODES });
      const side = f.string('lockedCurrencySide', { required: true, enum: ['SENDING', 'RECEIVING'] });
      const amount = f.integer('lockedCurrencyAmount', { required: true, min: 1, max: MAX_AMOUNT });
      const description = f.string('description', { maxLength: 500 });
      f.done();
      const scenario = umaAddress ? umaScenario(umaAddress) : undefined;
      if (scenario && destCurrency !== scenario.currency) {
        throw badRequest('INVALID_CURRENCY', `${umaAddress} receives ${scenario.currency}, not ${destCurrency}`);
      }
      if (accountId) {
        const account = emu.state.accounts.get(accountId);
        if (!account) throw notFound('InternalAccount', accountId);
        if (destCurrency && destCurrency !== account.currency) {
          throw badRequest('INVALID_CURRENCY', `destination.currency ${destCurrency} does not match account currency ${account.currency}`);
        }
      }
      const quote = createQuote(emu, {
        sourceCurrency: sourceCurrency!,
        destination: accountId
          ? { destinationType: 'ACCOUNT', accountId }
          : { destinationType: 'UMA_ADDRESS', umaAddress: umaAddress!, currency: destCurrency! },
        lockedCurrencySide: side as 'SENDING' | 'RECEIVING',
        lockedCurrencyAmount: amount!,
        ...(description ? { description } : {}),
      });
      return { status: 201, body: renderQuote(emu, quote) };
    },
  },
  {
    method: 'GET',
    path: '/quotes/:id',
    handler(req, emu) {
      const quote = emu.state.quotes.get(req.params.id!);
      if (!quote) throw notFound('Quote', req.params.id!, 'QUOTE_NOT_FOUND');
      return { status: 200, body: renderQuote(emu, quote) };
    },
  },
];
