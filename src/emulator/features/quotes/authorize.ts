/**
 * `POST /quotes/{quoteId}/authorize` (an ScaAuthorization proof) and `/authorize/resend`. Authorizing
 * the quote's challenge (sca.ts) releases what it held: the transfer of an executed account-funded
 * quote, or the paymentInstructions of a real-time-funding one; the answer is the quote. A quote
 * without a pending challenge is 409 CONFLICT (its payer outside the SCA regions: the description's
 * "SCA is not required"); a wrong or late proof 400 naming the field; a locked payer 423. Resend
 * keeps the challenge and its expiry (nothing is sent in the sandbox): 409 for a passkey challenge.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { customers } from '../customers/customers.js';
import { needsSca } from '../customers/region.js';
import { checkNotLocked, checkProof, readProof } from '../sca/challenge.js';
import { profileOf } from '../sca/profiles.js';
import { quoteStatus, quotes, renderQuote, requireQuote, type QuoteRec } from './quotes.js';
import { payerOf } from './sca.js';
import { runQuote } from './run.js';

/** The quote with its pending challenge, or the description's 404/409. */
function pendingQuote(emu: EmulatorContext, req: Req): QuoteRec & { sca: NonNullable<QuoteRec['sca']> } {
  const quote = requireQuote(emu, req.params.quoteId!);
  const payer = payerOf(emu, quote);
  if (!callerMaySee(req, payer ?? quote.customerId)) throw notFound('Quote', quote.id, 'QUOTE_NOT_FOUND');
  if (!payer || !needsSca(emu.table(customers).get(payer)))
    throw conflict('CONFLICT', `SCA is not required for this quote's customer (region outside the EEA)`);
  const status = quoteStatus(emu, quote);
  if (!quote.sca || status !== 'PENDING_AUTHORIZATION')
    throw conflict('CONFLICT', `Quote ${quote.id} has no pending challenge to authorize (status ${status})`);
  return quote as QuoteRec & { sca: NonNullable<QuoteRec['sca']> };
}

const authorize: Route = {
  method: 'POST',
  path: '/quotes/:quoteId/authorize',
  permission: 'TRANSACT',
  handler(req, emu) {
    // The fields' types (endUserIpAddress a string or null, read by nothing here) are the schema
    // check's; readProof keeps the rule this schema leaves out: a code, or an assertion with its origin.
    const f = new Fields(req.json());
    const proof = readProof(f);
    f.done();
    const quote = pendingQuote(emu, req);
    const profile = profileOf(emu, quote.sca.customerId);
    checkNotLocked(emu, profile);
    const { challenge, release } = quote.sca;
    checkProof(emu, profile, proof, {
      factors: challenge.availableFactors,
      ...(challenge.webauthnChallenge ? { webauthnChallenge: challenge.webauthnChallenge } : {}),
      expiresAtMs: challenge.expiresAtMs,
    });
    const released: QuoteRec = quote;
    delete released.sca;
    if (release === 'INSTRUCTIONS') {
      quote.extra = { ...quote.extra, paymentInstructions: quote.heldInstructions };
      delete quote.heldInstructions;
      emu.table(quotes).set(quote.id, quote);
    } else {
      emu.table(quotes).set(quote.id, quote);
      runQuote(emu, quote);
    }
    return { status: 200, body: renderQuote(emu, quote) };
  },
};

const resend: Route = {
  method: 'POST',
  path: '/quotes/:quoteId/authorize/resend',
  permission: 'TRANSACT',
  handler(req, emu) {
    const quote = pendingQuote(emu, req);
    if (quote.sca.challenge.factor !== 'SMS_OTP')
      throw conflict(
        'CONFLICT',
        `The challenge of quote ${quote.id} is a passkey challenge: there is no code to re-send`,
      );
    return { status: 204 };
  },
};

export const authorizeRoutes: Route[] = [authorize, resend];
