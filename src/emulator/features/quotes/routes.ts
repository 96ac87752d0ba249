/** POST /quotes (the pull path executes at once) and GET /quotes/{id}; execution is in execute.ts. */
import { notFound } from '../../kernel/errors.js';
import type { Route } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { executeNow, executeRoute } from './execute.js';
import { insertQuote, quotes, renderQuote, requireQuote } from './quotes.js';
import { readQuoteRequest } from './request.js';
import { authorizeRoutes } from './authorize.js';
import { requireAuthorization, scaNeeded } from './sca.js';

export const quoteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/quotes',
    permission: 'TRANSACT',
    permissionRefusal: 403,
    handler(req, emu) {
      const { init, immediately } = readQuoteRequest(req, emu);
      if (immediately) {
        // The pull path: priced and executed in one call; a refusal leaves no quote behind.
        const quote = insertQuote(emu, init);
        try {
          executeNow(emu, quote);
        } catch (error) {
          emu.table(quotes).delete(quote.id);
          throw error;
        }
        return { status: 201, body: renderQuote(emu, quote) };
      }
      const quote = insertQuote(emu, init);
      if (quote.sourceKind === 'REALTIME_FUNDING' && scaNeeded(emu, quote)) {
        // The description's 202: instructions are withheld until the challenge is authorized.
        const { paymentInstructions, ...rest } = quote.extra;
        quote.extra = rest;
        quote.heldInstructions = paymentInstructions;
        requireAuthorization(emu, quote, 'INSTRUCTIONS');
        emu.table(quotes).set(quote.id, quote);
        return { status: 202, body: renderQuote(emu, quote) };
      }
      return { status: 201, body: renderQuote(emu, quote) };
    },
  },
  {
    method: 'GET',
    path: '/quotes/:id',
    permission: 'VIEW',
    handler(req, emu) {
      const quote = requireQuote(emu, req.params.id!);
      if (!callerMaySee(req, quote.customerId)) throw notFound('Quote', quote.id, 'QUOTE_NOT_FOUND');
      return { status: 200, body: renderQuote(emu, quote) };
    },
  },
  executeRoute,
  ...authorizeRoutes,
];
