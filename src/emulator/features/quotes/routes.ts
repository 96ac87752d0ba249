/** POST /quotes (real-time funding) and GET /quotes/{id}. */
import { UMA_ADDRESS_PATTERN, idPattern } from '../../../service/identifiers.js';
import { umaScenario } from '../../../service/money-magic.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { accounts } from '../accounts/accounts.js';
import { CURRENCY_CODES, MAX_AMOUNT } from '../accounts/currencies.js';
import { createQuote, quotes, renderQuote } from './quotes.js';

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
      const accountId = destinationType === 'ACCOUNT' ? dest?.string('accountId', { required: true, pattern: idPattern('InternalAccount') }) : undefined;
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
        const account = emu.table(accounts).get(accountId);
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
      const quote = emu.table(quotes).get(req.params.id!);
      if (!quote) throw notFound('Quote', req.params.id!, 'QUOTE_NOT_FOUND');
      return { status: 200, body: renderQuote(emu, quote) };
    },
  },
];
