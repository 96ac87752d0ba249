/**
 * Quotes: create (every source and destination kind), read, execute (idempotent; signed for
 * embedded-wallet sources). The fixture is a real-time-funding quote awaiting payment, replaced
 * at start once paid or expired.
 */
import { defineFeature } from '../../kernel/feature.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { accounts } from '../accounts/accounts.js';
import { price, rates } from '../exchange-rates/rates.js';
import { migrateQuotes } from './migrate.js';
import { insertQuote, quoteStatus, quotes } from './quotes.js';
import { quoteRoutes } from './routes.js';

export const quotesFeature = defineFeature({
  name: 'quotes',
  routes: quoteRoutes,
  tables: [quotes],
  resume: migrateQuotes,
  fixtureKeys: ['quoteId'],
  fixtures(emu, made: Partial<Fixtures<'quoteId' | 'accountId'>>) {
    const quote = made.quoteId ? emu.table(quotes).get(made.quoteId) : undefined;
    if (quote && quoteStatus(emu, quote) === 'PENDING' && quote.destinationId === made.accountId) return {};
    const account = emu.table(accounts).get(made.accountId!)!;
    const fresh = insertQuote(emu, {
      ...price(rates(emu), 'USD', account.currency, 'SENDING', 10_000)!,
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: account.id },
      sourceKind: 'REALTIME_FUNDING',
      destinationKind: 'INTERNAL',
      destinationId: account.id,
      customerId: account.customerId,
      sendingCurrency: 'USD',
      receivingCurrency: account.currency,
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      extra: { description: 'svc emulator fixture quote' },
    });
    return { quoteId: fresh.id };
  },
});
