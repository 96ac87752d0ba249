/**
 * `svc sandbox send --quote <Quote:id> --currency <code> [--amount <int>]`: pays a real-time-funding
 * quote's payment instructions, as the payer's bank would in production.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { ApiError, UsageError } from '../../src/errors.js';
import { unusableQuoteHint } from '../error-hints.js';
import { apiTokenCall } from '../auth-hints.js';
import { sandboxSend } from '../../src/sandbox/api.js';
import { checkAll, requireAmount, requireCurrencyFlag } from './inputs.js';
import { describeTransaction } from './summary.js';

export type SendOptions = OptionsOf<typeof verbs.send>;

export async function run(opts: SendOptions, deps: Deps): Promise<void> {
  if (opts.quote !== undefined && opts.quoteId !== undefined && opts.quote !== opts.quoteId)
    throw new UsageError('--quote and --quote-id name the same quote: give one.', { input: '--quote-id' });
  const input = checkAll({
    quoteId: () =>
      opts.quoteId !== undefined
        ? requireId('Quote', opts.quoteId, '--quote-id')
        : requireId('Quote', opts.quote, '--quote'),
    currencyCode: () => requireCurrencyFlag(opts.currency, '--currency'),
    currencyAmount: () => (opts.amount === undefined ? undefined : requireAmount(opts.amount, '--amount')),
  });

  const client = await deps.client();
  const { ui } = deps;
  const { body } = await apiTokenCall(sandboxSend(client, input, deps.signal)).catch((error: unknown) => {
    // The quote is in the body, not the path: the default hint could not name it.
    if (error instanceof ApiError && !error.hint && error.fieldErrors.some((fe) => fe.field === 'quoteId'))
      error.hint = unusableQuoteHint(input.quoteId);
    throw error;
  });
  ui.result(body, () => ui.out(`Paid ${input.quoteId} in ${input.currencyCode}: ${describeTransaction(body)}`));
}
