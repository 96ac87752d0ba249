/**
 * Sandbox payments: pay a real-time-funding quote (a UMA magic destination steers how the payment
 * goes), receive an incoming UMA payment whose outcome the sender address steers ($success.<usd|eur|mxn>,
 * $pending.long.usd, $fail.compliance.usd at any domain; the table is in src/service), and read
 * transactions.
 */
import { UMA_ADDRESS_PATTERN, idPattern } from '../../../service/identifiers.js';
import { UMA_SCENARIO_LIST, umaScenario } from '../../../service/money-magic.js';
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { accountOf, accounts, credit } from '../accounts/accounts.js';
import { CURRENCY_CODES, MAX_AMOUNT, exchangeRate, money } from '../accounts/currencies.js';
import { balanceOverflow } from '../accounts/routes.js';
import { findCustomerByUma } from '../customers/customers.js';
import { quotes, renderQuote } from '../quotes/quotes.js';
import { recordTransaction, transactions } from './transactions.js';

export const paymentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/sandbox/send',
    handler(req, emu) {
      const f = new Fields(req.json());
      const quoteId = f.string('quoteId', { required: true, pattern: idPattern('Quote') });
      const currencyCode = f.string('currencyCode', { required: true, enum: CURRENCY_CODES });
      const currencyAmount = f.integer('currencyAmount', { min: 1, max: MAX_AMOUNT });
      f.done();
      const quote = emu.table(quotes).get(quoteId!);
      if (!quote) throw notFound('Quote', quoteId!, 'QUOTE_NOT_FOUND');
      if (quote.status !== 'PENDING') throw badRequest('INVALID_INPUT', `Quote ${quote.id} is already paid`, { errors: [{ field: 'quoteId', message: 'the quote is already paid' }] });
      if (quote.expiresAtMs <= emu.now()) throw badRequest('INVALID_INPUT', `Quote ${quote.id} has expired`, { errors: [{ field: 'quoteId', message: 'the quote has expired; create a new one' }] });
      if (currencyCode !== quote.sendingCurrency) {
        throw badRequest('INVALID_CURRENCY', `The quote expects ${quote.sendingCurrency}, not ${currencyCode}`);
      }
      if (currencyAmount !== undefined && currencyAmount !== quote.totalSendingAmount) {
        throw badRequest('INVALID_AMOUNT', `The quote expects exactly ${quote.totalSendingAmount} (smallest unit of ${quote.sendingCurrency})`);
      }
      const destination = quote.destinationAccountId ? emu.table(accounts).get(quote.destinationAccountId) : undefined;
      const scenario = quote.destinationUmaAddress ? umaScenario(quote.destinationUmaAddress) : undefined;
      const outcome = scenario?.outcome ?? 'COMPLETED';
      if (destination && !credit(destination, quote.totalReceivingAmount, emu.iso())) throw balanceOverflow();
      quote.status = outcome === 'PENDING' ? 'PROCESSING' : outcome;
      const tx = recordTransaction(emu, 'OUTGOING', outcome, {
        quoteId: quote.id,
        source: { sourceType: 'REALTIME_FUNDING', currency: quote.sendingCurrency },
        destination: renderQuote(emu, quote).destination,
        sentAmount: money(quote.totalSendingAmount, quote.sendingCurrency),
        receivedAmount: money(quote.totalReceivingAmount, quote.receivingCurrency),
      }, scenario?.failureReason);
      quote.transactionId = tx.id as string;
      return { status: 200, body: tx };
    },
  },
  {
    method: 'POST',
    path: '/sandbox/uma/receive',
    handler(req, emu) {
      const f = new Fields(req.json());
      const sender = f.string('senderUmaAddress', { required: true });
      const receiver = f.string('receiverUmaAddress', { required: true });
      const currencyCode = f.string('receivingCurrencyCode', { required: true, enum: CURRENCY_CODES });
      const amount = f.integer('receivingCurrencyAmount', { required: true, min: 1, max: MAX_AMOUNT });
      f.done();
      // Both addresses are checked before answering, so one 400 names every malformed one.
      const malformed = (['senderUmaAddress', 'receiverUmaAddress'] as const)
        .filter((field) => !UMA_ADDRESS_PATTERN.test(field === 'senderUmaAddress' ? sender! : receiver!))
        .map((field) => ({ field, constraint: { pattern: UMA_ADDRESS_PATTERN.source }, message: `${field} must look like $user@domain` }));
      if (malformed.length > 0) {
        throw badRequest('INVALID_UMA_ADDRESS', `Not a UMA address ($user@domain): ${malformed.map((e) => e.field).join(', ')}`, { errors: malformed });
      }
      const scenario = umaScenario(sender!);
      if (!scenario) throw badRequest('SENDER_NOT_ACCEPTED', `Sandbox senders are ${UMA_SCENARIO_LIST} at any domain`);
      const customer = findCustomerByUma(emu, receiver!);
      if (!customer) throw new HttpError(404, 'UMA_NOT_FOUND', `No platform user has the UMA address ${receiver}`);
      const account = accountOf(emu, customer.id, currencyCode!);
      if (!account) throw badRequest('INVALID_CURRENCY', `${receiver} cannot receive ${currencyCode}`);
      const { outcome: status, currency: sendingCurrency } = scenario;
      const rate = exchangeRate(sendingCurrency, currencyCode!);
      if (status === 'COMPLETED' && !credit(account, amount!, emu.iso())) throw balanceOverflow();
      const tx = recordTransaction(emu, 'INCOMING', status, {
        senderUmaAddress: sender,
        receiverUmaAddress: receiver,
        customerId: customer.id,
        destination: { destinationType: 'ACCOUNT', accountId: account.id },
        sentAmount: money(Math.ceil(amount! / rate), sendingCurrency),
        receivedAmount: money(amount!, currencyCode!),
        exchangeRate: rate,
      }, scenario.failureReason);
      return { status: 200, body: tx };
    },
  },
  {
    method: 'GET',
    path: '/transactions/:id',
    handler(req, emu) {
      const tx = emu.table(transactions).get(req.params.id!);
      if (!tx) throw notFound('Transaction', req.params.id!, 'TRANSACTION_NOT_FOUND');
      return { status: 200, body: tx };
    },
  },
];
