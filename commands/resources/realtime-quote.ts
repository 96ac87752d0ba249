/**
 * `svc quotes execute` of a real-time-funding quote: the service refuses it (such a quote is paid
 * to its paymentInstructions, not executed), and the next step is the payment, with the quote's
 * own currency, so the hint is a command that runs as written.
 */
import { ApiError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/types.js';

interface QuoteFunding {
  source?: { sourceType?: string; currency?: string };
  sendingCurrency?: { code?: string };
}

/** Sets the hint on the refusal of a real-time-funding quote's execute; other errors are left as they are. */
export async function payInstead(
  error: unknown,
  ctx: { client: ApiClient; path: string; signal: AbortSignal },
): Promise<void> {
  if (!(error instanceof ApiError) || error.status !== 400) return;
  const quoteId = /^\/quotes\/([^/?]+)\/execute$/.exec(ctx.path.split('?')[0]!)?.[1];
  if (!quoteId || !error.fieldErrors.some((fe) => fe.field === 'quoteId')) return;
  const quote = await ctx.client
    .request<QuoteFunding>({ method: 'GET', path: `/quotes/${quoteId}`, signal: ctx.signal })
    .then(
      (res) => res.body,
      () => undefined,
    );
  if (quote?.source?.sourceType !== 'REALTIME_FUNDING') return;
  const currency = quote.source.currency ?? quote.sendingCurrency?.code ?? '<code>';
  const id = decodeURIComponent(quoteId);
  error.hint = `A real-time-funding quote is paid, not executed: the payer sends to its paymentInstructions. In the sandbox, pay it with: svc sandbox send --quote ${id} --currency ${currency}`;
}
