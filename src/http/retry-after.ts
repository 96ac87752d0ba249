/**
 * When a 429 may be retried automatically, and after how long. Only requests that are safe to send
 * twice are repeated: idempotent methods, and signed retries (a request carrying Request-Id), which
 * the spec makes idempotent. A plain POST could create a second resource, so its 429 surfaces.
 */

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'PUT', 'OPTIONS']);

/** Total attempts for one request when the service keeps answering 429. */
export const RATE_LIMIT_MAX_ATTEMPTS = 4;
/** Longest wait we accept; a longer Retry-After is reported instead of sitting silent in a terminal. */
export const RATE_LIMIT_MAX_WAIT_MS = 30_000;
/** Wait used when the 429 has no (usable) Retry-After. */
export const RATE_LIMIT_DEFAULT_WAIT_MS = 1_000;

/** True when sending this request twice cannot do something twice (see the file comment). */
export function isSafeToRepeat(method: string, headers: Record<string, string>): boolean {
  if (IDEMPOTENT_METHODS.has(method.toUpperCase())) return true;
  return Object.keys(headers).some((name) => name.toLowerCase() === 'request-id');
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unparseable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates always name a month; this keeps Date.parse from reading '-1' as a year.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
