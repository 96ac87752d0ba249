/**
 * The webhook receiver: a node:http server that, for each POST on its path, reads the raw body
 * (at most maxBodyBytes), verifies X-Service-Signature over those exact bytes, parses the envelope,
 * drops duplicates by id, optionally forwards to the integrator's app, records the id and only then
 * reports the event and answers 200 (see dedupe.ts for why that order).
 *
 * Hot path: no promise or closure beyond the body reader when there is no store and no forward
 * target; constant replies are pre-encoded; the body is forwarded as the received buffer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DedupeStore } from './dedupe.js';
import { parseEnvelope, type WebhookEvent } from './envelope.js';
import type { ForwardResult, Forwarder } from './forward.js';

/**
 * Checks the signature header over the raw body: createWebhookVerifier's function (synchronous), or
 * one that verifies off the event loop and resolves later (createAsyncWebhookVerifier in src/crypto/webhook-signature.ts).
 */
export type Verify = (body: Uint8Array, header: string | undefined) => boolean | Promise<boolean>;

export interface Rejection {
  status: number;
  reason: string;
  /** Remote address of the sender, for the warning line. */
  remote?: string;
}

export interface AcceptedEvent {
  event: WebhookEvent;
  verified: boolean;
  /** The app's answer when forwarding (always 2xx here: failures are not accepted). */
  forward?: ForwardResult;
}

export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** Required on purpose: only an explicit undefined (--skip-verify) turns verification off. */
  verify: Verify | undefined;
  dedupe: DedupeStore;
  /** Types to report and forward; others are acknowledged and recorded silently. Empty/absent: all. */
  events?: Iterable<string>;
  forwarder?: Forwarder;
  maxBodyBytes?: number;
  /** Whole-request limit (slow or truncated bodies get 408). Default 30 s. */
  requestTimeoutMs?: number;
  onEvent(accepted: AcceptedEvent): void;
  onFiltered?(event: WebhookEvent): void;
  onDuplicate?(event: WebhookEvent): void;
  onRejected?(rejection: Rejection): void;
  onForwardFailed?(event: WebhookEvent, result: ForwardResult): void;
  /** The id could not be recorded (disk error): answered 500 so the service retries. */
  onError?(error: unknown, event: WebhookEvent): void;
}

export interface ReceiverStats {
  received: number;
  duplicates: number;
  rejected: number;
  filtered: number;
  forwardFailed: number;
}

export interface WebhookReceiver {
  /** http://host:port/path */
  readonly url: string;
  readonly port: number;
  readonly stats: Readonly<ReceiverStats>;
  /** Stops accepting, lets deliveries in progress finish (up to graceMs), then closes all sockets. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const SIGNATURE_HEADER = 'x-service-signature';

interface Reply {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

function reply(status: number, payload: object, extra: Record<string, string> = {}): Reply {
  const body = Buffer.from(JSON.stringify(payload));
  return { status, body, headers: { 'content-type': 'application/json', 'content-length': body.length, ...extra } };
}

const ACCEPTED = reply(200, { received: true });
const DUPLICATE = reply(200, { received: true, duplicate: true });
const NOT_FOUND = reply(404, { error: 'not found' });
const NOT_ALLOWED = reply(405, { error: 'method not allowed' }, { allow: 'POST' });
const MISSING_SIGNATURE = reply(401, { error: 'missing X-Service-Signature header' });
const BAD_SIGNATURE = reply(401, { error: 'X-Service-Signature does not verify over the body' });
const STORE_FAILED = reply(500, { error: 'could not record the delivery; retry' });
const SHUTTING_DOWN = reply(503, { error: 'receiver is shutting down; retry' }, { connection: 'close' });
const EMPTY = Buffer.alloc(0);
const noop = () => {};

function send(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

export function createWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const tooLarge = reply(413, { error: `body larger than ${maxBody} bytes` }, { connection: 'close' });
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const { verify, dedupe, forwarder } = options;
  const wanted = options.events ? new Set(options.events) : undefined;
  const filtering = wanted !== undefined && wanted.size > 0;
  const stats: ReceiverStats = { received: 0, duplicates: 0, rejected: 0, filtered: 0, forwardFailed: 0 };
  /** Ids being processed right now, with deliveries of the same id waiting for the outcome. */
  const inflight = new Map<string, Array<() => void> | null>();
  /** Deliveries past the body read (verifying, forwarding or recording): close() waits for them. */
  let active = 0;
  let idle: (() => void) | undefined;
  let closing = false;
  const release = () => {
    if (--active === 0 && idle) idle();
  };

  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 20_000),
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
      keepAliveTimeout: 5000,
    },
    onRequest,
  );

  function refuse(req: IncomingMessage, res: ServerResponse, r: Reply, reason: string): void {
    stats.rejected++;
    send(res, r);
    options.onRejected?.({ status: r.status, reason, remote: req.socket.remoteAddress });
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== path) return refuse(req, res, NOT_FOUND, `${req.method} ${url}: not found`);
    if (req.method !== 'POST') return refuse(req, res, NOT_ALLOWED, `${req.method} ${path}: method not allowed`);
    const declared = req.headers['content-length'];
    // Answer before reading any of it; Connection: close makes node drop the socket after the reply.
    if (declared !== undefined && Number(declared) > maxBody) return refuse(req, res, tooLarge, `body of ${declared} bytes is over the limit`);
    readBody(req, res);
  }

  function readBody(req: IncomingMessage, res: ServerResponse): void {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let over = false;
    req.on('error', noop); // a client that vanishes mid-body gets no answer; nothing to report
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBody) {
        over = true;
        first = chunks = undefined;
        return refuse(req, res, tooLarge, `streamed body over the limit of ${maxBody} bytes`);
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      onBody(req, res, chunks ? Buffer.concat(chunks, size) : first ?? EMPTY);
    });
  }

  function onBody(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    if (verify !== undefined) {
      const header = req.headers[SIGNATURE_HEADER];
      if (typeof header !== 'string' || header === '') return refuse(req, res, MISSING_SIGNATURE, 'missing X-Service-Signature header');
      let valid: boolean | Promise<boolean>;
      try {
        valid = verify(body, header);
      } catch {
        valid = false;
      }
      if (valid === true) return onVerified(req, res, body);
      if (valid === false) return refuse(req, res, BAD_SIGNATURE, 'X-Service-Signature does not verify over the body');
      active++;
      valid.then(
        (ok) => (ok ? onVerified(req, res, body) : refuse(req, res, BAD_SIGNATURE, 'X-Service-Signature does not verify over the body')),
        () => refuse(req, res, BAD_SIGNATURE, 'X-Service-Signature does not verify over the body'),
      ).finally(release);
      return;
    }
    onVerified(req, res, body);
  }

  function onVerified(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const event = parseEnvelope(body);
    if (typeof event === 'string') return refuse(req, res, reply(400, { error: event }), event);
    accept(req, res, event, body);
  }

  function accept(req: IncomingMessage, res: ServerResponse, event: WebhookEvent, body: Buffer): void {
    // Once stopping, nothing new is recorded or printed: the service keeps it and retries.
    if (closing) return send(res, SHUTTING_DOWN);
    const id = event.id;
    if (dedupe.has(id)) {
      stats.duplicates++;
      send(res, DUPLICATE);
      options.onDuplicate?.(event);
      return;
    }
    if (inflight.has(id)) {
      // Same id still being forwarded or recorded: its outcome decides (duplicate, or our turn).
      let waiting = inflight.get(id);
      if (!waiting) inflight.set(id, (waiting = []));
      waiting.push(() => accept(req, res, event, body));
      return;
    }
    inflight.set(id, null);
    active++;
    const shown = !filtering || wanted!.has(event.type);
    if (shown && forwarder) {
      forwarder.forward(body, req.headers).then(
        (result) => (result.ok ? commit(res, event, shown, result) : forwardFailed(res, event, result)),
        (error) => storeFailed(res, event, error),
      );
    } else {
      commit(res, event, shown, undefined);
    }
  }

  function commit(res: ServerResponse, event: WebhookEvent, shown: boolean, forward: ForwardResult | undefined): void {
    const durable = dedupe.record(event.id);
    if (durable === undefined) return deliver(res, event, shown, forward);
    durable.then(
      () => deliver(res, event, shown, forward),
      (error) => storeFailed(res, event, error),
    );
  }

  /** Recorded: report it, then acknowledge. A report failure (closed stdout) must not lose the 200. */
  function deliver(res: ServerResponse, event: WebhookEvent, shown: boolean, forward: ForwardResult | undefined): void {
    stats.received++;
    try {
      if (shown) options.onEvent(forward ? { event, verified: verify !== undefined, forward } : { event, verified: verify !== undefined });
      else {
        stats.filtered++;
        options.onFiltered?.(event);
      }
    } catch (error) {
      options.onError?.(error, event);
    }
    send(res, ACCEPTED);
    settle(event.id);
  }

  function forwardFailed(res: ServerResponse, event: WebhookEvent, result: ForwardResult): void {
    stats.forwardFailed++;
    send(res, reply(result.status, { error: result.error ?? `forward target answered ${result.status}` }));
    options.onForwardFailed?.(event, result);
    settle(event.id);
  }

  function storeFailed(res: ServerResponse, event: WebhookEvent, error: unknown): void {
    send(res, STORE_FAILED);
    options.onError?.(error, event);
    settle(event.id);
  }

  function settle(id: string): void {
    const waiting = inflight.get(id);
    inflight.delete(id);
    if (waiting) for (const retry of waiting) retry();
    release();
  }

  async function close(graceMs = 5000): Promise<void> {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    server.closeAllConnections();
    await closed;
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4242, host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      // An unspecified bind address is reachable on loopback; that is the URL to hand out.
      const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      const shownHost = reachable.includes(':') ? `[${reachable}]` : reachable;
      resolve({ url: `http://${shownHost}:${port}${path}`, port, stats, close });
    });
  });
}
