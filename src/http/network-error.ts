/**
 * No HTTP answer at all: refused, reset, DNS, TLS or a timeout. The message names the URL (never
 * credentials or query) and the hint points at the one thing a user can usually fix: the base URL.
 */
import { NetworkError } from '../errors.js';

const BASE_URL_HINT =
  'Check the base URL (--base-url or SERVICE_BASE_URL) and that the server is running; for a local sandbox run `svc emulator start`.';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
};

/** The most specific error code in err or its causes (undici wraps socket errors as UND_ERR_SOCKET). */
export function errorCode(err: unknown): string | undefined {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes.find((c) => c !== 'UND_ERR_SOCKET') ?? codes[0];
}

/** True when err (or a cause) is undici's or the OS's way of saying the wait ran out. */
export function isTimeoutError(err: unknown): boolean {
  const code = errorCode(err);
  return (code !== undefined && TIMEOUT_CODES.has(code)) || (err as { name?: unknown })?.name === 'TimeoutError';
}

/** The NetworkError for an exchange that got no answer: names the URL and the reason, never credentials. */
export function networkError(err: unknown, url: string, timedOut: boolean, timeoutMs: number): NetworkError {
  if (timedOut) {
    return new NetworkError(`No answer from ${url} within ${Math.round(timeoutMs / 1000)}s`, {
      url,
      timedOut: true,
      hint: BASE_URL_HINT,
      cause: err,
    });
  }
  const code = errorCode(err);
  const what = code ? `${DESCRIPTIONS[code] ?? 'request failed'} (${code})` : 'request failed';
  return new NetworkError(`Could not reach ${url}: ${what}`, { url, hint: BASE_URL_HINT, cause: err });
}
