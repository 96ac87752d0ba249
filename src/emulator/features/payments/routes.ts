/**
 * Sandbox payments: pay a real-time-funding quote (its destination then goes as the sandbox tables
 * say: an internal account is credited, an external account follows the quote-execution table, a
 * UMA magic address steers the outcome), and receive an incoming UMA payment whose outcome the
 * sender address steers ($success.<usd|eur|mxn>, $pending.long.usd, $fail.compliance.usd at any
 * domain; the table is in src/service).
 */
import { UMA_ADDRESS_PATTERN, idPattern } from '../../../service/identifiers.js';
import { UMA_SCENARIO_LIST, umaScenario } from '../../../service/money-magic.js';
import { HttpError, badRequest } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { accountOf } from '../accounts/accounts.js';
import { callerMaySee } from '../accounts/caller.js';
import { CURRENCY_CODES, MAX_AMOUNT, money } from '../accounts/currencies.js';
import { costOf, rates } from '../exchange-rates/rates.js';
import { customerOr404, findCustomerByUma } from '../customers/customers.js';
import { quoteStatus, requireQuote } from '../quotes/quotes.js';
import { runQuote } from '../quotes/run.js';
import { startWithApproval } from '../transactions/approval.js';
import { umaPlan } from '../transactions/plans.js';
import { renderTransaction } from '../transactions/transactions.js';

export const paymentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/sandbox/send',
    permission: 'TRANSACT',
    permissionRefusal: 403,
    handler(req, emu) {
      // Required fields and types are the description's, checked before this runs; read here are the
      // emulator's rules: the id's kind, a currency it knows, an amount above 0.
      const f = new Fields(req.json());
      const quoteId = f.string('quoteId', { pattern: idPattern('Quote') });
      const currencyCode = f.string('currencyCode', { enum: CURRENCY_CODES });
      const currencyAmount = f.integer('currencyAmount', { min: 1, max: MAX_AMOUNT });
      f.done();
      const quote = requireQuote(emu, quoteId!);
      if (quote.sourceKind !== 'REALTIME_FUNDING') {
        throw badRequest('INVALID_INPUT', `Quote ${quote.id} is funded from an account; execute it instead`, {
          errors: [{ field: 'quoteId', message: 'not a real-time-funding quote' }],
        });
      }
      const status = quoteStatus(emu, quote);
      if (status === 'EXPIRED')
        throw badRequest('INVALID_INPUT', `Quote ${quote.id} has expired`, {
          errors: [{ field: 'quoteId', message: 'the quote has expired; create a new one' }],
        });
      if (status === 'PENDING_AUTHORIZATION')
        throw badRequest('INVALID_INPUT', `Quote ${quote.id} awaits strong customer authentication`, {
          errors: [{ field: 'quoteId', message: `authorize it first: POST /quotes/${quote.id}/authorize` }],
        });
      if (status !== 'PENDING')
        throw badRequest('INVALID_INPUT', `Quote ${quote.id} is already paid`, {
          errors: [{ field: 'quoteId', message: 'the quote is already paid' }],
        });
      if (currencyCode !== quote.sendingCurrency) {
        throw badRequest('INVALID_CURRENCY', `The quote expects ${quote.sendingCurrency}, not ${currencyCode}`);
      }
      if (currencyAmount !== undefined && currencyAmount !== quote.totalSendingAmount) {
        throw badRequest(
          'INVALID_AMOUNT',
          `The quote expects exactly ${quote.totalSendingAmount} (smallest unit of ${quote.sendingCurrency})`,
        );
      }
      return { status: 200, body: renderTransaction(runQuote(emu, quote)) };
    },
  },
  {
    method: 'POST',
    path: '/sandbox/uma/receive',
    permission: 'TRANSACT',
    permissionRefusal: 403,
    async handler(req, emu) {
      // Required fields and types are the description's, checked before this runs.
      const f = new Fields(req.json());
      const sender = f.string('senderUmaAddress');
      // The receiver by UMA address or by customer id (the description's SandboxUmaReceiveRequest), one of them.
      const customerId = f.string('customerId', { pattern: idPattern('Customer') });
      if (!f.has('receiverUmaAddress') && !f.has('customerId'))
        f.add('receiverUmaAddress', 'receiverUmaAddress or customerId is required');
      if (f.has('receiverUmaAddress') && f.has('customerId'))
        f.add('customerId', 'give receiverUmaAddress or customerId, not both');
      const address = f.string('receiverUmaAddress');
      const currencyCode = f.string('receivingCurrencyCode', { enum: CURRENCY_CODES });
      const amount = f.integer('receivingCurrencyAmount', { min: 1, max: MAX_AMOUNT });
      f.done();
      const receiver = customerId === undefined ? address : customerOr404(emu, customerId).umaAddress;
      // Both addresses are checked before answering, so one 400 names every malformed one.
      const malformed = (['senderUmaAddress', 'receiverUmaAddress'] as const)
        .filter((field) => !UMA_ADDRESS_PATTERN.test(field === 'senderUmaAddress' ? sender! : receiver!))
        .map((field) => ({
          field,
          constraint: { pattern: UMA_ADDRESS_PATTERN.source },
          message: `${field} must look like $user@domain`,
        }));
      if (malformed.length > 0) {
        throw badRequest(
          'INVALID_UMA_ADDRESS',
          `Not a UMA address ($user@domain): ${malformed.map((e) => e.field).join(', ')}`,
          { errors: malformed },
        );
      }
      const scenario = umaScenario(sender!);
      if (!scenario) throw badRequest('SENDER_NOT_ACCEPTED', `Sandbox senders are ${UMA_SCENARIO_LIST} at any domain`);
      const customer = findCustomerByUma(emu, receiver!);
      // An agent reaches its own customer only: another customer's address is as unknown to it as
      // that customer's id would be (the kernel's scope cannot see an address, only ids).
      if (!customer || !callerMaySee(req, customer.id))
        throw new HttpError(404, 'UMA_NOT_FOUND', `No platform user has the UMA address ${receiver}`);
      const account = accountOf(emu, customer.id, currencyCode!);
      if (!account) throw badRequest('INVALID_CURRENCY', `${receiver} cannot receive ${currencyCode}`);
      const snapshot = rates(emu);
      // UMA is an approval rail: the platform's answer to INCOMING_PAYMENT.PENDING decides (approval.ts).
      const tx = await startWithApproval(emu, {
        type: 'INCOMING',
        direction: 'CREDIT',
        fields: {
          customerId: customer.id,
          senderUmaAddress: sender,
          receiverUmaAddress: receiver,
          source: { sourceType: 'UMA_ADDRESS', umaAddress: sender, currency: scenario.currency },
          destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: currencyCode },
          sentAmount: money(costOf(snapshot, amount!, scenario.currency, currencyCode!), scenario.currency),
          receivedAmount: money(amount!, currencyCode!),
          exchangeRate: snapshot.rate(scenario.currency, currencyCode!),
        },
        ...umaPlan(sender!),
        credit: { accountId: account.id, amount: amount! },
      });
      return { status: 200, body: renderTransaction(tx) };
    },
  },
];
