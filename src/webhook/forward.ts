/**
 * Forwarding: hands a verified delivery to the integrator's app, byte for byte, with the service's
 * headers, so the app can run its own verification on exactly what the service signed. The app's
 * answer decides the receiver's: an app error goes back to the service so that it retries.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, errors, request } from 'undici';
import { UsageError } from '../errors.js';

export interface ForwardResult {
  /** Where it was forwarded (one of the routes' targets, or the fallback). */
  url?: string;
  /** The app answered 2xx. */
  ok: boolean;
  /** The app's status; 502 if it could not be reached, 504 if it did not answer in time. */
  status: number;
  ms: number;
  /** Why there is no app status (connection refused, timeout), without any body content. */
  error?: string;
}

export interface Forwarder {
  readonly url: string;
  /** Routes (routes.ts): the target for an event type, or undefined to forward it nowhere. Plain forwarders take every type. */
  pick?(type: string): Forwarder | undefined;
  /** Why the app cannot be reached right now (a TCP connect within timeoutMs), or undefined if it can. */
  probe(timeoutMs?: number): Promise<string | undefined>;
  /** `headers`: serviceHeaders() of the delivery (kept in the journal as such, for a resumed delivery). */
  forward(body: Uint8Array, headers: Record<string, string>): Promise<ForwardResult>;
  close(): Promise<void>;
}

/** A forward the app has not answered in this long counts as failed (504); `--forward-timeout`. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;

export interface ForwarderOptions {
  /** Limit of one whole forward (connect, headers, body). Default DEFAULT_FORWARD_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Runs `fire` after `ms`, returns a cancel: the limit's clock (a test moves its own). Default setTimeout. */
  timer?: (ms: number, fire: () => void) => () => void;
  /** The input the URL came from, named by the error about a bad one. Default `forwardTo`. */
  input?: string;
}

/**
 * What a user types for a local app, as a URL: `localhost:3000/hooks` and `127.0.0.1:3000` mean
 * http (as with the Stripe CLI), and a bare port means localhost. Anything with a scheme is kept.
 */
export function forwardUrl(given: string): string {
  const text = given.trim();
  if (/^\d+(\/.*)?$/.test(text)) return `http://localhost:${text}`;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
}

/** The URL a forward to `given` goes to, or undefined when it is no http(s) URL. */
export function forwardTarget(given: string): URL | undefined {
  const full = forwardUrl(given);
  const target = URL.canParse(full) ? new URL(full) : undefined;
  return target?.protocol === 'http:' || target?.protocol === 'https:' ? target : undefined;
}

/** Validates the URL (http or https) and keeps one keep-alive connection pool to the app. */
export function createForwarder(url: string, options: ForwarderOptions = {}): Forwarder {
  const target = forwardTarget(url);
  if (target === undefined) {
    throw new UsageError(`"${url}" is not an http(s) URL or host:port`, {
      input: options.input ?? 'forwardTo',
      reason: 'NOT_HTTP_URL',
      hint: 'For example localhost:3000/webhooks or https://app.example.com/hooks.',
    });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const timer = options.timer ?? realTimer;
  // undici's own limits are per phase; the one that counts is the whole forward's, below.
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connectTimeout: timeoutMs });
  const href = target.href;

  return {
    url: href,
    async forward(body, headers) {
      const started = performance.now();
      // Each forward has its own limit, so a hanging app costs each delivery at most timeoutMs and
      // holds up no other delivery (each has its own connection from the pool).
      const abort = new AbortController();
      const cancel = timer(timeoutMs, () => abort.abort(new ForwardTimeout(timeoutMs)));
      try {
        const response = await request(href, {
          method: 'POST',
          body,
          headers,
          dispatcher: agent,
          signal: abort.signal,
        });
        await response.body.dump();
        const status = response.statusCode;
        const ms = performance.now() - started;
        if (status >= 200 && status < 300) return { url: href, ok: true, status, ms };
        // An informational or redirect answer is not an acknowledgement, and is no status to hand the service.
        if (status < 400) return { url: href, ok: false, status: 502, ms, error: `app answered ${status}` };
        return { url: href, ok: false, status, ms };
      } catch (error) {
        const ms = performance.now() - started;
        // An abort surfaces as undici's own error or as the reason given: the signal says which it was.
        if (abort.signal.aborted)
          return { url: href, ok: false, status: 504, ms, error: describe(abort.signal.reason) };
        const timedOut = error instanceof errors.ConnectTimeoutError;
        return { url: href, ok: false, status: timedOut ? 504 : 502, ms, error: describe(error) };
      } finally {
        cancel();
      }
    },
    probe: (probeMs = 3000) => probeConnect(target, probeMs),
    close: () => agent.close(),
  };
}

class ForwardTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms (--forward-timeout)`);
  }
}

function realTimer(ms: number, fire: () => void): () => void {
  const handle = setTimeout(fire, ms);
  return () => clearTimeout(handle);
}

function probeConnect(target: URL, timeoutMs: number): Promise<string | undefined> {
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`no connection within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ECONNREFUSED'
          ? 'connection refused (ECONNREFUSED): nothing listens there'
          : (error.code ?? error.message),
      ),
    );
  });
}

/** Content-Type, User-Agent and every X-Service-* header (the signature among them), as received. */
export function serviceHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in incoming) {
    if (name === 'content-type' || name === 'user-agent' || name.startsWith('x-service-')) {
      const value = incoming[name];
      if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return out;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
