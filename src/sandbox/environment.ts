/**
 * Which environment an API token belongs to, asked without creating anything. One base URL serves
 * the sandbox and production; the token selects. `POST /sandbox/send` for a quote that cannot exist,
 * with a body the API description accepts: the sandbox answers 404 QUOTE_NOT_FOUND, production
 * answers 403 to every sandbox endpoint.
 */
import { ApiError } from '../errors.js';
import type { ApiClient } from '../http/types.js';

/** A well-formed quote id that no service issues (a nil-like v4 UUID): paying it can only fail. */
const PROBE_QUOTE_ID = 'Quote:00000000-0000-4000-8000-000000000000';

/** 'unknown': the service accepted the probe, which neither environment should. Other errors are thrown. */
export type TokenEnvironment = 'sandbox' | 'production' | 'unknown';

export async function tokenEnvironment(client: ApiClient, signal?: AbortSignal): Promise<TokenEnvironment> {
  try {
    await client.request({
      method: 'POST',
      path: '/sandbox/send',
      body: { quoteId: PROBE_QUOTE_ID, currencyCode: 'USD' },
      signal,
    });
    return 'unknown';
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return 'production';
    if (error instanceof ApiError && error.status === 404 && error.code === 'QUOTE_NOT_FOUND') return 'sandbox';
    throw error;
  }
}
