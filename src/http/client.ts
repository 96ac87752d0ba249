/**
 * The one HTTP client every command uses: node:http for a direct connection, undici for a proxy or
 * a caller's dispatcher, the version-suffixed base URL, Basic or Bearer auth, JSON bodies sent as exact bytes, typed errors, a timeout, proxies from the environment and
 * polite 429 handling. The `log` callback sees method, path, query (secret-named values masked),
 * status and timing only, so a verbose log can never print a header, a body or a secret.
 */
import { InsecureTransportError, InterruptedError, ResponseTooLargeError } from '../errors.js';
import { apiErrorFromResponse } from './api-error.js';
import { joinUrl, loggableQuery, normalizeBaseUrl, pathOnly } from './base-url.js';
import { bodyTimedOut, errorCode, isTimeoutError, networkError } from './network-error.js';
import { nodeTransport, type Answer, type Exchange as Sent } from './node-transport.js';
import { isLoopbackHost, proxyFor, proxySettingsFor } from './proxy.js';
import {
  RATE_LIMIT_DEFAULT_WAIT_MS,
  RATE_LIMIT_MAX_ATTEMPTS,
  RATE_LIMIT_MAX_WAIT_MS,
  isSafeToRepeat,
  parseRetryAfter,
} from './retry-after.js';
import { DEFAULT_MAX_RESPONSE_BYTES, readBodyText } from './read-body.js';
import { abortableSleep } from './sleep.js';
import type { ApiClient, ApiResponse, Auth, ClientOptions, RequestOptions } from './types.js';

export { API_VERSION, normalizeBaseUrl } from './base-url.js';
export type { ApiClient, ApiResponse, Auth, ClientOptions, HttpLogEntry, RequestOptions } from './types.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_USER_AGENT = 'service-cli';

function authorization(auth: Auth): string {
  if (auth.kind === 'basic') return `Basic ${Buffer.from(`${auth.tokenId}:${auth.secret}`, 'utf8').toString('base64')}`;
  return `Bearer ${auth.token}`;
}

/**
 * Removes this client's credentials from text a server sent back: a broken or hostile server that
 * echoes the request (its Authorization header, the secret) must not get them printed.
 */
function credentialRedactor(auth: Auth): (text: string) => string {
  const header = authorization(auth);
  const secrets = [header.slice(header.indexOf(' ') + 1), auth.kind === 'basic' ? auth.secret : auth.token].filter(
    (s) => s.length >= 8,
  );
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  };
}

/**
 * Credentials in clear: an http:// base URL whose host is not this machine. Checked before any
 * connection, so nothing (not even the TCP handshake) reaches that host unless the user opted in.
 */
function insecureTransport(baseUrl: string, auth: Auth, wallet: boolean): InsecureTransportError | undefined {
  const url = new URL(baseUrl);
  // 0.0.0.0 and :: connect to this machine too (Linux, macOS): nothing crosses the network.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'http:' || isLoopbackHost(host) || host === '0.0.0.0' || host === '::') return undefined;
  const what = [
    auth.kind === 'basic' ? 'the API credentials (HTTP Basic)' : 'the access token',
    wallet ? 'a wallet signature' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return new InsecureTransportError(
    `Refusing to send ${what} over plain http:// to ${url.host}: anyone on the network path could read ${wallet ? 'them' : 'it'}`,
    {
      input: 'baseUrl',
      reason: 'INSECURE_TRANSPORT',
      host: url.hostname,
      hint: `Use https:// in the base URL. If ${url.hostname} is yours and the network is trusted, allow plain http (ClientOptions.allowInsecureHttp, or SERVICE_ALLOW_INSECURE_HTTP=1).`,
    },
  );
}

/** An object is serialized once here; a string is already the exact bytes the caller wants sent. */
function serializeBody(body: string | object | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

interface Exchange extends Omit<Sent, 'signal'> {
  path: string;
  signal?: AbortSignal;
}

/** How long the 429 asks us to wait, and `retryIn` only when repeating it automatically is allowed. */
function rateLimitWait(res: RawResponse, attempt: number, repeatable: boolean): { retryIn?: number; wait: number } {
  const wait = parseRetryAfter(res.headers['retry-after']) ?? RATE_LIMIT_DEFAULT_WAIT_MS;
  const retry = repeatable && attempt < RATE_LIMIT_MAX_ATTEMPTS && wait <= RATE_LIMIT_MAX_WAIT_MS;
  return { retryIn: retry ? wait : undefined, wait };
}

/**
 * A connection goes back to its pool only after the response has ended (undici: in the event
 * loop's next check phase, a setImmediate; Node's agent: when the socket is freed). A request sent
 * sooner, as the next step of a flow always is (the signed retry right after its challenge), finds
 * the connection still taken and opens another. One turn of the loop first lets the next request
 * reuse the open connection: a TCP connect (and a TLS handshake, against the service) saved on
 * every step after the first. The first request of a client has nothing to wait for.
 */
function idleConnectionsReleased(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * An API client for one base URL and credential: appends the version segment, sends string bodies as
 * exact bytes, repeats a 429 after Retry-After only when the request is safe to repeat, times out
 * after `timeoutMs`, and routes through HTTPS_PROXY/HTTP_PROXY (minus NO_PROXY and loopback) from `env`.
 */
export function createClient(opts: ClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(opts.baseUrl);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const env = opts.env ?? process.env;
  const proxied = opts.dispatcher === undefined && proxySettingsFor(baseUrl, env) !== undefined;
  const proxy = proxied ? proxyFor(baseUrl, env) : undefined;
  /** A direct connection goes through node:http; a proxy or a caller's dispatcher through undici, loaded then. */
  let transport: Promise<(x: Sent) => Promise<Answer>> | undefined;
  const transportOf = () =>
    (transport ??=
      opts.dispatcher === undefined && !proxied
        ? Promise.resolve(nodeTransport)
        : import('./undici-transport.js').then((undici) =>
            undici.undiciTransport(opts.dispatcher ?? undici.proxyDispatcherFor(baseUrl, env)!),
          ));
  const redact = credentialRedactor(opts.auth);
  const fixedHeaders: Record<string, string> = {
    accept: 'application/json',
    'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT,
    authorization: authorization(opts.auth),
  };

  /** Whether a response has come back, so a connection may be waiting to be released. */
  let answered = false;

  /** One HTTP exchange; turns "no answer" into NetworkError/InterruptedError and logs it. */
  async function send(x: Exchange): Promise<RawResponse> {
    const logPath = pathOnly(x.path);
    const query = loggableQuery(x.path);
    // hrtime rather than performance.now(): the global performance object loads perf_hooks.
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const timeout = AbortSignal.timeout(x.timeoutMs);
    const signal = x.signal ? AbortSignal.any([x.signal, timeout]) : timeout;
    const url = x.url.split(/[?#]/)[0]!;
    let status: number | undefined;
    try {
      if (answered) await idleConnectionsReleased();
      const res = await (await transportOf())({ ...x, signal });
      status = res.statusCode;
      const text = await readBodyText(res, url, maxResponseBytes);
      answered = true;
      opts.log?.({ method: x.method, path: logPath, query, status: res.statusCode, ms: elapsed() });
      return { status: res.statusCode, headers: flattenHeaders(res.headers), text };
    } catch (err) {
      if (err instanceof ResponseTooLargeError) {
        opts.log?.({ method: x.method, path: logPath, query, status, ms: elapsed(), error: 'response too large' });
        throw err;
      }
      if (x.signal?.aborted) {
        opts.log?.({ method: x.method, path: logPath, query, ms: elapsed(), error: 'aborted' });
        throw new InterruptedError('Interrupted', { cause: err });
      }
      const timedOut = timeout.aborted || isTimeoutError(err);
      opts.log?.({
        method: x.method,
        path: logPath,
        query,
        ms: elapsed(),
        error: timedOut ? 'timeout' : (errorCode(err) ?? 'network error'),
      });
      // The server did answer: say that its body never finished, not that nothing came back.
      if (status !== undefined && timedOut) throw bodyTimedOut(err, url, status, x.timeoutMs);
      throw networkError(err, url, timedOut, x.timeoutMs, proxy);
    }
  }

  return {
    baseUrl,
    timeoutMs,
    async request<T = unknown>(req: RequestOptions): Promise<ApiResponse<T>> {
      const method = req.method.toUpperCase();
      if (!opts.allowInsecureHttp) {
        const wallet = Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'service-wallet-signature');
        const refused = insecureTransport(baseUrl, opts.auth, wallet);
        if (refused) throw refused;
      }
      const body = serializeBody(req.body);
      const headers: Record<string, string> = { ...fixedHeaders };
      if (body !== undefined) headers['content-type'] = 'application/json';
      for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
      const exchange: Exchange = {
        method,
        path: req.path,
        url: req.fromRoot ? new URL(req.path, baseUrl).href : joinUrl(baseUrl, req.path),
        headers,
        body,
        signal: req.signal,
        timeoutMs: Math.max(1, Math.min(req.timeoutMs ?? timeoutMs, timeoutMs)),
      };
      const repeatable = isSafeToRepeat(method, headers);

      for (let attempt = 1; ; attempt++) {
        if (req.signal?.aborted) throw new InterruptedError();
        const res = await send(exchange);
        if (res.status >= 200 && res.status < 300) {
          return { status: res.status, headers: res.headers, body: parseBody(res.text) as T, text: res.text };
        }
        let hint: string | undefined;
        if (res.status === 429) {
          const { retryIn, wait } = rateLimitWait(res, attempt, repeatable);
          if (retryIn !== undefined) {
            await abortableSleep(retryIn, req.signal);
            continue;
          }
          hint = `Rate limited: wait ${Math.max(1, Math.ceil(wait / 1000))}s and run the command again.`;
        }
        throw apiErrorFromResponse({
          status: res.status,
          contentType: res.headers['content-type'],
          text: redact(res.text),
          method,
          path: pathOnly(req.path),
          hint,
        });
      }
    },
  };
}
