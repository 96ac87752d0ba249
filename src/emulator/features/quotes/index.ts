/** Real-time-funding quotes. The fixture is a quote awaiting payment, replaced at start once paid or expired. */
import type { Feature } from '../../kernel/feature.js';
import { createQuote, quotes } from './quotes.js';
import { quoteRoutes } from './routes.js';

export const quotesFeature: Feature = {
  name: 'quotes',
  routes: quoteRoutes,
  tables: [quotes],
  fixtures(emu, made) {
    const quote = made.quoteId ? emu.table(quotes).get(made.quoteId) : undefined;
    if (quote && quote.status === 'PENDING' && quote.expiresAtMs > emu.now() && quote.destinationAccountId === made.accountId) return {};
    const fresh = createQuote(emu, {
      sourceCurrency: 'USD',
      destination: { destinationType: 'ACCOUNT', accountId: made.accountId! },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      description: 'svc emulator fixture quote',
    });
    return { quoteId: fresh.id };
  },
};
