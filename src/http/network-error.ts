/**
 * No HTTP answer at all: refused, reset, DNS, TLS or a timeout. The message names the URL (never
 * credentials or query) and the hint points at the one thing a user can usually fix: the base URL.
 */
import { NetworkError } from '../errors.js';

/** In any caller's words; the CLI names its flag and command instead (commands/error-hints.ts, by reason). */
const BASE_URL_HINT =
  'Check the base URL (or SERVICE_BASE_URL) and that the server is running; for a local sandbox, start the emulator.';

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

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
export function networkError(
  err: unknown,
  url: string,
  timedOut: boolean,
  timeoutMs: number,
  proxy?: { origin: string; variable: string },
): NetworkError {
  const refusedWith = proxy ? tunnelRefusal(err) : undefined;
  if (proxy && refusedWith !== undefined) {
    const host = new URL(url).host;
    return new NetworkError(
      `The proxy ${proxy.origin} (${proxy.variable}) refused to open a tunnel to ${host}: it answered CONNECT with HTTP ${refusedWith}`,
      {
        url,
        hint:
          refusedWith === 407
            ? `The proxy wants credentials: put them in its URL in ${proxy.variable} (http://user:password@host:port).`
            : `Check the proxy's rules for ${host} (its log says why it refused), or list the host in NO_PROXY to connect directly.`,
        cause: err,
      },
    );
  }
  if (proxy && !timedOut) {
    // A dead or refusing proxy fails every request: say so, not that the service is down.
    const what = describeFailure(err);
    return new NetworkError(`Could not reach ${url} through the proxy ${proxy.origin} (${proxy.variable}): ${what}`, {
      url,
      hint: `Check that the proxy in ${proxy.variable} is running and reachable, or unset it (or list this host in NO_PROXY) to connect directly.`,
      cause: err,
    });
  }
  if (timedOut) {
    return new NetworkError(`No answer from ${url} within ${limitText(timeoutMs)}`, {
      url,
      timedOut: true,
      reason: 'UNREACHABLE',
      hint: BASE_URL_HINT,
      cause: err,
    });
  }
  const what = describeFailure(err);
  return new NetworkError(`Could not reach ${url}: ${what}`, {
    url,
    reason: 'UNREACHABLE',
    hint: BASE_URL_HINT,
    cause: err,
  });
}

/** The server answered (status) but its body had not all arrived when the time ran out. */
export function bodyTimedOut(err: unknown, url: string, status: number, timeoutMs: number): NetworkError {
  return new NetworkError(
    `${url} answered HTTP ${status} but had not finished sending its body within ${limitText(timeoutMs)}`,
    {
      url,
      timedOut: true,
      reason: 'BODY_TIMEOUT',
      hint: 'The server is slow or sends without end; allow more time (SERVICE_TIMEOUT) if the answer is large and slow, or check the base URL.',
      cause: err,
    },
  );
}

function limitText(timeoutMs: number): string {
  return timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)}s`;
}

/** "connection refused (ECONNREFUSED)"; llhttp's parse errors (HPE_*) mean the answer was not HTTP. */
function describeFailure(err: unknown): string {
  const code = errorCode(err) ?? parserCode(err);
  if (!code) return 'request failed';
  const known =
    DESCRIPTIONS[code] ??
    (code.startsWith('HPE_') ? 'the server answered something that is not HTTP' : 'request failed');
  return `${known} (${code})`;
}

/** undici aborts a CONNECT the proxy did not answer 200 with this message (code UND_ERR_ABORTED). */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/** The status a proxy answered CONNECT with, when that is why the request failed. */
function tunnelRefusal(err: unknown): number | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const match = TUNNEL_REFUSED.exec(String((e as { message?: unknown }).message));
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** undici's HTTPParserError carries no code; its name says the answer could not be parsed. */
function parserCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { name?: unknown }).name === 'HTTPParserError') return 'HPE_INVALID_RESPONSE';
  }
  return undefined;
}
