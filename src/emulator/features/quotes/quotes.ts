/**
 * Real-time-funding quotes: the platform pays the returned payment instructions (in the sandbox,
 * with POST /sandbox/send) and the quote completes, or, to a UMA magic destination, goes as that
 * address says (src/service); such a quote must be in the address's currency. Only REALTIME_FUNDING sources are quoted:
 * executing account-funded quotes (POST /quotes/{id}/execute) is not emulated.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable } from '../../kernel/tables.js';
import { accounts } from '../accounts/accounts.js';
import { CURRENCIES, exchangeRate } from '../accounts/currencies.js';

export interface QuoteRec {
  id: string;
  /** PENDING until paid; then as the payment went (a UMA magic destination steers it). */
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  body: Record<string, unknown>;
  sendingCurrency: string;
  totalSendingAmount: number;
  receivingCurrency: string;
  totalReceivingAmount: number;
  destinationAccountId?: string;
  destinationUmaAddress?: string;
  expiresAtMs: number;
  transactionId?: string;
}

export const quotes = durableTable<QuoteRec>('quotes');

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
    ? emu.table(accounts).get(q.destination.accountId)!.currency
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
  return emu.table(quotes).set(id, quote);
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
