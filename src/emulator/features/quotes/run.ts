/**
 * Executing a quote (or paying a real-time-funding one): the transaction it starts and the course
 * the sandbox tables give it. A pull checks its external source first (the transfer table); a
 * payout to an external account follows the quote-execution table; a UMA destination its address.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { money } from '../accounts/currencies.js';
import { accounts } from '../accounts/accounts.js';
import { externalAccounts } from '../external-accounts/records.js';
import { startTransaction } from '../transactions/course.js';
import { COMPLETES, quoteExecutionPlan, succeeds, transferPlan, umaPlan, type Plan } from '../transactions/plans.js';
import type { TxRec } from '../transactions/transactions.js';
import { quoteTransactionId, type QuoteRec } from './quotes.js';

function primaryOf(emu: EmulatorContext, id: string): string {
  return emu.table(externalAccounts).get(id)?.primaryIdentifier ?? '';
}

function plan(emu: EmulatorContext, q: QuoteRec): Plan {
  if (q.sourceKind === 'EXTERNAL') {
    const pull = transferPlan(primaryOf(emu, q.sourceAccountId!), q.destinationKind === 'INTERNAL');
    if (!succeeds(pull)) return pull;
  }
  if (q.destinationKind === 'EXTERNAL') return quoteExecutionPlan(primaryOf(emu, q.destinationId));
  if (q.destinationKind === 'UMA') return umaPlan(q.destinationId);
  return COMPLETES;
}

/** Starts the quote's transaction (400 when an internal source lacks the funds) and links it to the quote. */
export function runQuote(emu: EmulatorContext, q: QuoteRec): TxRec {
  const incoming = q.destinationKind === 'INTERNAL' && q.sourceKind !== 'INTERNAL';
  const destinationAccount = q.destinationKind === 'INTERNAL' ? emu.table(accounts).get(q.destinationId) : undefined;
  const tx = startTransaction(emu, {
    id: quoteTransactionId(emu, q),
    type: incoming ? 'INCOMING' : 'OUTGOING',
    // The description: an inbound pull is INCOMING and DEBIT (of the external account); real-time funding credits.
    direction: incoming && q.sourceKind === 'REALTIME_FUNDING' ? 'CREDIT' : 'DEBIT',
    fields: {
      ...((q.customerId ?? destinationAccount?.customerId)
        ? { customerId: q.customerId ?? destinationAccount?.customerId }
        : {}),
      source:
        q.sourceKind === 'REALTIME_FUNDING'
          ? { sourceType: 'REALTIME_FUNDING', currency: q.sendingCurrency }
          : { sourceType: 'ACCOUNT', accountId: q.sourceAccountId, currency: q.sendingCurrency },
      destination:
        q.destinationKind === 'UMA'
          ? { destinationType: 'UMA_ADDRESS', umaAddress: q.destinationId, currency: q.receivingCurrency }
          : { destinationType: 'ACCOUNT', accountId: q.destinationId, currency: q.receivingCurrency },
      sentAmount: money(q.totalSendingAmount, q.sendingCurrency),
      receivedAmount: money(q.totalReceivingAmount, q.receivingCurrency),
      exchangeRate: q.exchangeRate,
      fees: q.feesIncluded,
      platformFees: q.feesIncluded,
      quoteId: q.id,
      ...(q.extra.description ? { description: q.extra.description } : {}),
    },
    ...plan(emu, q),
    ...(q.sourceKind === 'INTERNAL' ? { hold: { accountId: q.sourceAccountId!, amount: q.totalSendingAmount } } : {}),
    ...(destinationAccount ? { credit: { accountId: destinationAccount.id, amount: q.totalReceivingAmount } } : {}),
  });
  q.transactionId = tx.id;
  emu.changed();
  return tx;
}
