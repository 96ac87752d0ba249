/**
 * An SMS or email credential needs the customer's phone number or email: the hint's
 * `customers update` needs the customer's `--type` too, which the error does not carry, so it is
 * read from the service here (a failed read leaves the type for the user to fill in).
 */
import { ApiError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/types.js';
import { customerNamedBy, missingContactHint } from '../error-hints.js';

export async function withCustomerType(error: unknown, client: ApiClient, signal: AbortSignal): Promise<unknown> {
  if (!(error instanceof ApiError) || error.hint) return error;
  const customerId = customerNamedBy(error);
  if (!customerId) return error;
  const type = await client
    .request<{ customerType?: string }>({ method: 'GET', path: `/customers/${encodeURIComponent(customerId)}`, signal })
    .then(
      (res) => res.body?.customerType,
      () => undefined,
    );
  const hint = missingContactHint(error, type);
  if (hint) error.hint = hint;
  return error;
}
