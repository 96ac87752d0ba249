/**
 * POST /quotes/{quoteId}/execute. A quote funded from an internal account or pulled from an
 * external one is executed once: a second call is 409, unless it repeats the Idempotency-Key of the
 * call that executed it, which gets that call's answer again (the same key with another quote is
 * 400). An embedded-wallet source takes either form: the description's one call, stamped over the
 * payloadToSign of the quote's EMBEDDED_WALLET payment instruction (200 at once), or the spec's
 * two-step signed retry (an unsigned call answers 202 with a payloadToSign, the retry signed by a
 * session key of that wallet executes).
 * Real-time-funding quotes are paid instead (POST /sandbox/send).
 */
import type { ScaFactor } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { type HttpError, badRequest, conflict, notFound, unauthorized } from '../../kernel/errors.js';
import type { Reply, Route } from '../../kernel/router.js';
import { signedFlow } from '../../signed-retry/flow.js';
import { authorizeSignature } from '../../signed-retry/signature.js';
import { accounts } from '../accounts/accounts.js';
import { callerMaySee } from '../accounts/caller.js';
import { externalAccounts } from '../external-accounts/records.js';
import { idempotencyKey, recall, remember } from '../../kernel/idempotency.js';
import {
  WALLET_SIGNING_ACTIVITY,
  quoteStatus,
  quotes,
  renderQuote,
  requireQuote,
  signingParameters,
  type QuoteRec,
} from './quotes.js';
import { requireAuthorization, scaNeeded } from './sca.js';
import { runQuote } from './run.js';

/** Why this quote cannot be executed now, or undefined. */
function refusal(emu: EmulatorContext, quote: QuoteRec): HttpError | undefined {
  if (quote.sourceKind === 'REALTIME_FUNDING') {
    return badRequest(
      'INVALID_INPUT',
      'A real-time-funding quote is executed by paying its paymentInstructions (in the sandbox: POST /sandbox/send)',
      {
        errors: [{ field: 'quoteId', message: 'the quote has a REALTIME_FUNDING source' }],
      },
    );
  }
  for (const id of [quote.sourceAccountId, quote.destinationId]) {
    if (id?.startsWith('ExternalAccount:') && !emu.table(externalAccounts).has(id)) {
      return badRequest('INVALID_INPUT', `${id} was deleted after the quote was made; create a new quote`, {
        errors: [{ field: 'quoteId', message: `${id} no longer exists` }],
      });
    }
  }
  const status = quoteStatus(emu, quote);
  if (status === 'PENDING_AUTHORIZATION')
    return conflict(
      'CONFLICT',
      `Quote ${quote.id} is awaiting strong customer authentication: authorize it with POST /quotes/${quote.id}/authorize`,
    );
  if (status === 'EXPIRED')
    return conflict('CONFLICT', `Quote ${quote.id} expired at ${emu.iso(quote.expiresAtMs)}; create a new one`);
  if (status !== 'PENDING')
    return conflict('CONFLICT', `Quote ${quote.id} was already executed (${status}, ${quote.transactionId})`);
  return undefined;
}

/** Executes at once (the caller has checked any signature); throws the refusal. */
export function executeNow(emu: EmulatorContext, quote: QuoteRec): Reply {
  const refused = refusal(emu, quote);
  if (refused) throw refused;
  // SCA (sca.ts): nothing moves yet; the authorization releases the transfer.
  if (scaNeeded(emu, quote)) {
    requireAuthorization(emu, quote, 'EXECUTE');
    emu.table(quotes).set(quote.id, quote);
  } else runQuote(emu, quote);
  return { status: 200, body: renderQuote(emu, quote) };
}

export const executeRoute: Route = {
  method: 'POST',
  path: '/quotes/:quoteId/execute',
  permission: 'TRANSACT',
  permissionRefusal: 403,
  async handler(req, emu) {
    const key = idempotencyKey(req);
    const seen = recall(emu, key, req.params.quoteId!);
    if (seen) return seen;
    const quote = requireQuote(emu, req.params.quoteId!);
    // The body is optional; its scaFactor (SMS_OTP or PASSKEY: the schema check refuses TOTP) is the
    // factor the challenge this call may issue should use.
    const scaFactor = req.raw.length > 0 ? (req.json().scaFactor as ScaFactor | undefined) : undefined;
    const source = quote.sourceKind === 'INTERNAL' ? emu.table(accounts).get(quote.sourceAccountId!) : undefined;
    // An agent executes only what spends its own customer's money.
    const payer =
      source?.customerId ??
      (quote.sourceAccountId ? emu.table(externalAccounts).get(quote.sourceAccountId)?.customerId : quote.customerId);
    if (!callerMaySee(req, payer)) throw notFound('Quote', quote.id, 'QUOTE_NOT_FOUND');
    if (scaFactor) quote.scaFactor = scaFactor;
    if (source?.type !== 'EMBEDDED_WALLET') return remember(emu, key, quote.id, executeNow(emu, quote));
    const stamp = req.header('service-wallet-signature');
    if (stamp !== undefined && req.header('request-id') === undefined && quote.walletPayload) {
      // The description's one call: a stamp over the payloadToSign the quote gave, no challenge first.
      const refused = refusal(emu, quote);
      if (refused) throw refused;
      authorizeSignature(emu, { accountId: source.id, payloadToSign: quote.walletPayload }, stamp);
      return remember(emu, key, quote.id, executeNow(emu, quote));
    }
    return signedFlow(emu, req, {
      kind: 'quote-execute',
      resourceId: quote.id,
      accountId: source.id,
      binding: '',
      bindingField: 'body',
      begin() {
        const refused = refusal(emu, quote);
        if (refused) throw refused;
        return { activityType: WALLET_SIGNING_ACTIVITY, parameters: signingParameters(quote.id, quote) };
      },
      checkTarget() {
        if (refusal(emu, quote))
          throw unauthorized('The quote can no longer be executed (expired or already executed)');
      },
      settle: async () => remember(emu, key, quote.id, executeNow(emu, quote)),
    });
  },
};
