/**
 * The request log: the newest API requests the emulator answered, for the dashboard's Requests view
 * and `svc emulator logs`. A bounded ring of references: recording one costs a few property writes
 * (no copy, no JSON work); masking and rendering happen only when someone reads it
 * (dashboard/request-view.ts). Bodies larger than MAX_KEPT_BYTES are kept by size only, so the
 * ring's memory stays bounded whatever clients send.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Principal } from './auth.js';
import type { Reply } from './router.js';

/** How many requests the log keeps; the oldest go first. */
const REQUEST_LOG_SIZE = 500;
/** A body longer than this is kept by its size only. */
const MAX_KEPT_BYTES = 64 * 1024;

export interface LoggedRequest {
  /** 1, 2, 3… in the order answered: a reader asks for what came after the last one it saw. */
  seq: number;
  /** When it was answered, on the emulator's clock (epoch ms). */
  atMs: number;
  method: string;
  /** The path as the log may show it (a secret path segment replaced, no query). */
  path: string;
  status: number;
  durationMs: number;
  headers: IncomingHttpHeaders;
  principal: Principal | undefined;
  /** The request body, or its size when it is too large (or unread: undefined). */
  requestBody: Buffer | number | undefined;
  /** The response body as sent, or its size when too large. */
  responseBody: string | number | undefined;
  responseType: string | undefined;
  /** The Request-Id tying the two steps of a signed flow: the retry's header, or the 202's requestId. */
  requestId: string | undefined;
}

export type RequestListener = (entry: LoggedRequest) => void;

export class RequestLog {
  private readonly ring: (LoggedRequest | undefined)[];
  private next = 0;
  private seq = 0;
  private readonly listeners = new Set<RequestListener>();

  constructor(size = REQUEST_LOG_SIZE) {
    this.ring = new Array(size);
  }

  record(entry: Omit<LoggedRequest, 'seq'>): void {
    const logged = entry as LoggedRequest;
    logged.seq = ++this.seq;
    this.ring[this.next] = logged;
    this.next = (this.next + 1) % this.ring.length;
    for (const listener of this.listeners) listener(logged);
  }

  /** The last seq given out (0 before the first request). */
  get lastSeq(): number {
    return this.seq;
  }

  /** The kept entries after seq `after`, oldest first. */
  since(after = 0): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 0; i < this.ring.length; i++) {
      const entry = this.ring[(this.next + i) % this.ring.length];
      if (entry && entry.seq > after) out.push(entry);
    }
    return out;
  }

  get(seq: number): LoggedRequest | undefined {
    const entry = this.ring[(seq - 1) % this.ring.length];
    return entry?.seq === seq ? entry : undefined;
  }

  /** Calls listener for each request recorded from now on; returns the unsubscribe. */
  subscribe(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** A body as the log keeps it: itself when small, else its size. */
function keptBody<T extends Buffer | string>(body: T | undefined): T | number | undefined {
  if (body === undefined || body.length === 0) return undefined;
  return body.length > MAX_KEPT_BYTES ? body.length : body;
}

/** The log entry of one answered request (server.ts records it once the reply is sent). */
export function requestLogEntry(
  atMs: number,
  req: IncomingMessage,
  path: string,
  reply: Reply,
  sent: string | undefined,
  durationMs: number,
  raw: Buffer | undefined,
  principal: Principal | undefined,
): Omit<LoggedRequest, 'seq'> {
  const retryId = req.headers['request-id'];
  const challenge = reply.status === 202 ? (reply.body as { requestId?: unknown } | undefined)?.requestId : undefined;
  return {
    atMs,
    method: req.method ?? 'GET',
    path,
    status: reply.status,
    durationMs,
    headers: req.headers,
    principal,
    requestBody: keptBody(raw),
    responseBody: keptBody(sent),
    responseType: reply.text !== undefined ? reply.headers?.['content-type'] : 'application/json',
    requestId: typeof retryId === 'string' ? retryId : typeof challenge === 'string' ? challenge : undefined,
  };
}
