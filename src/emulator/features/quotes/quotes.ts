/**
 * Quotes: a priced move of money from a source (an internal account, a pull-capable external
 * account, or real-time funding paid to the quote's payment instructions) to a destination (an
 * internal account, an external account, or a UMA address). A quote's status follows its
 * transaction once executed (or paid); before that it is PENDING until expiresAt, then EXPIRED.
 */
import { randomBytes } from 'node:crypto';
import type { ScaFactor } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';
import { CURRENCIES } from '../accounts/currencies.js';
import type { Priced } from '../exchange-rates/rates.js';
import { type Challenge, renderChallenge } from '../sca/challenge.js';
import { scaProfiles } from '../sca/profiles.js';
import { transactions } from '../transactions/transactions.js';
import { newId } from '../../kernel/ids.js';
import { FUNDING_ACCOUNTS } from './funding.js';
import { activityPayload } from '../../signed-retry/flow.js';
import { accounts } from '../accounts/accounts.js';

export type SourceKind = 'REALTIME_FUNDING' | 'INTERNAL' | 'EXTERNAL';
export type DestinationKind = 'INTERNAL' | 'EXTERNAL' | 'UMA';

export interface QuoteRec extends Priced {
  id: string;
  /** The request's source and destination objects, as rendered. */
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  sourceKind: SourceKind;
  /** Internal or external account id of an ACCOUNT source. */
  sourceAccountId?: string;
  destinationKind: DestinationKind;
  /** Account id or UMA address. */
  destinationId: string;
  customerId?: string;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  /** description, remittanceInformation, purposeOfPayment, paymentInstructions: rendered as given. */
  extra: Record<string, unknown>;
  createdAtMs: number;
  expiresAtMs: number;
  /** The transaction that executing the quote makes, once executed. */
  transactionId?: string;
  /** Its id, chosen at creation: the description's Quote names it before execution. */
  reservedTransactionId?: string;
  /** The factor the caller asked its SCA challenge to use (`scaFactor` of the quote or its execute). */
  scaFactor?: ScaFactor;
  /** An SCA challenge to authorize before the money moves (sca.ts); gone once authorized. */
  sca?: { release: 'EXECUTE' | 'INSTRUCTIONS'; customerId: string; challenge: Challenge };
  /** paymentInstructions withheld until the SCA challenge is authorized. */
  heldInstructions?: unknown;
  /**
   * An embedded-wallet source's payloadToSign, given in the quote's EMBEDDED_WALLET payment
   * instruction: a stamp over it on POST /quotes/{id}/execute executes in one call.
   */
  walletPayload?: string;
}

export const quotes = durableTable<QuoteRec>(
  'quotes',
  {
    id: 'string',
    source: 'object',
    destination: 'object',
    sourceKind: 'string',
    sourceAccountId: 'string?',
    destinationKind: 'string',
    destinationId: 'string',
    customerId: 'string?',
    sendingCurrency: 'string',
    receivingCurrency: 'string',
    lockedCurrencySide: 'string',
    lockedCurrencyAmount: 'number',
    extra: 'object',
    createdAtMs: 'number',
    expiresAtMs: 'number',
    transactionId: 'string?',
    reservedTransactionId: 'string?',
    scaFactor: 'string?',
    sca: 'object?',
    heldInstructions: 'any',
    walletPayload: 'string?',
    totalSendingAmount: 'number',
    totalReceivingAmount: 'number',
    exchangeRate: 'number',
    feesIncluded: 'number',
  },
  // A real-time-funding quote of an earlier state file (no sourceKind), rewritten by migrate.ts.
  (record) => record.sourceKind === undefined && typeof record.body === 'object',
);

/** Real-time funding waits for a payment (a day); an account-funded quote locks its rate for 5 minutes. */
const REALTIME_QUOTE_TTL_MS = 24 * 60 * 60 * 1000;
const ACCOUNT_QUOTE_TTL_MS = 5 * 60 * 1000;

export type QuoteInit = Omit<
  QuoteRec,
  'id' | 'createdAtMs' | 'expiresAtMs' | 'transactionId' | 'reservedTransactionId'
>;

export function insertQuote(emu: EmulatorContext, init: QuoteInit): QuoteRec {
  const now = emu.now();
  const id = newId('Quote');
  const extra = { ...init.extra };
  if (init.sourceKind === 'REALTIME_FUNDING') {
    const reference = `SVC${randomBytes(5).toString('hex').toUpperCase()}`;
    extra.paymentInstructions = [
      {
        instructionsNotes: `Include reference ${reference} with the payment. In the sandbox, pay with POST /sandbox/send.`,
        accountOrWalletInfo: { ...FUNDING_ACCOUNTS[init.sendingCurrency]!, reference },
      },
    ];
  }
  const walletPayload = isWallet(emu, init.sourceAccountId)
    ? activityPayload(emu, init.sourceAccountId!, WALLET_SIGNING_ACTIVITY, signingParameters(id, init))
    : undefined;
  const ttl = init.sourceKind === 'REALTIME_FUNDING' ? REALTIME_QUOTE_TTL_MS : ACCOUNT_QUOTE_TTL_MS;
  const reservedTransactionId = newId('Transaction');
  return emu.table(quotes).set(id, {
    ...init,
    id,
    extra,
    createdAtMs: now,
    expiresAtMs: now + ttl,
    reservedTransactionId,
    ...(walletPayload ? { walletPayload } : {}),
  });
}

/** The key-management activity a wallet signs to release a payment from it. */
export const WALLET_SIGNING_ACTIVITY = 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';

/** What a wallet's signature over a quote's payment binds: the quote, the amount and its currency. */
export function signingParameters(
  quoteId: string,
  q: Pick<QuoteRec, 'totalSendingAmount' | 'sendingCurrency'>,
): Record<string, unknown> {
  return { quoteId, amount: String(q.totalSendingAmount), currency: q.sendingCurrency };
}

/** The description's payment instruction of an embedded-wallet source: what to sign, and where the stamp goes. */
function walletInstructions(payloadToSign: string): Record<string, unknown>[] {
  return [
    {
      instructionsNotes:
        'Stamp payloadToSign as received with a session key of the source wallet; send the stamp as Service-Wallet-Signature on POST /quotes/{quoteId}/execute.',
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
    },
  ];
}

function isWallet(emu: EmulatorContext, accountId: string | undefined): boolean {
  return (
    accountId?.startsWith('InternalAccount:') === true && emu.table(accounts).get(accountId)?.type === 'EMBEDDED_WALLET'
  );
}

/** The id of the quote's transaction, made or to be made (a quote saved before ids were reserved gets one now). */
export function quoteTransactionId(emu: EmulatorContext, q: QuoteRec): string {
  if (q.transactionId) return q.transactionId;
  if (!q.reservedTransactionId) {
    q.reservedTransactionId = newId('Transaction');
    emu.changed();
  }
  return q.reservedTransactionId;
}

export function requireQuote(emu: EmulatorContext, id: string): QuoteRec {
  const quote = emu.table(quotes).get(id);
  if (!quote) throw notFound('Quote', id, 'QUOTE_NOT_FOUND');
  return quote;
}

export type QuoteStatus = 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

export function quoteStatus(emu: EmulatorContext, q: QuoteRec): QuoteStatus {
  if (q.transactionId) {
    const tx = emu.table(transactions).get(q.transactionId);
    if (!tx) return 'PROCESSING';
    return tx.status === 'COMPLETED' || tx.status === 'FAILED' ? tx.status : 'PROCESSING';
  }
  if (q.expiresAtMs <= emu.now()) return 'EXPIRED';
  return q.sca ? 'PENDING_AUTHORIZATION' : 'PENDING';
}

export function renderQuote(emu: EmulatorContext, q: QuoteRec): Record<string, unknown> {
  const status = quoteStatus(emu, q);
  const profile =
    q.sca && status === 'PENDING_AUTHORIZATION' ? emu.table(scaProfiles).get(q.sca.customerId) : undefined;
  return {
    id: q.id,
    status,
    createdAt: emu.iso(q.createdAtMs),
    expiresAt: emu.iso(q.expiresAtMs),
    source: q.source,
    destination: q.destination,
    sendingCurrency: CURRENCIES[q.sendingCurrency],
    receivingCurrency: CURRENCIES[q.receivingCurrency],
    totalSendingAmount: q.totalSendingAmount,
    totalReceivingAmount: q.totalReceivingAmount,
    exchangeRate: q.exchangeRate,
    feesIncluded: q.feesIncluded,
    platformFeesIncluded: q.feesIncluded,
    lockedCurrencySide: q.lockedCurrencySide,
    lockedCurrencyAmount: q.lockedCurrencyAmount,
    ...q.extra,
    ...(q.walletPayload ? { paymentInstructions: walletInstructions(q.walletPayload) } : {}),
    transactionId: quoteTransactionId(emu, q),
    ...(profile ? { scaChallenge: renderChallenge(emu, profile, q.sca!.challenge) } : {}),
  };
}
