/**
 * The receiver's answers. The constant ones are built once at load: a delivery's hot path only
 * writes text that already exists. Bodies are strings, not Buffers: node then sends the head and
 * the body as one string in one write, where a Buffer body takes the writev path, which costs more
 * CPU a request (test/bench/webhook-bench.mjs).
 */
import type { ServerResponse } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | number>;
  /** JSON text; content-length is its UTF-8 byte length. */
  body: string;
}

export function reply(status: number, payload: object, extra: Record<string, string> = {}): Reply {
  const body = JSON.stringify(payload);
  return {
    status,
    body,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra },
  };
}

export const ACCEPTED = reply(200, { received: true });
export const DUPLICATE = reply(200, { received: true, duplicate: true });
/** With a journal: the app failed; the delivery is kept in the journal and the listener retries it itself. */
export const QUEUED = reply(200, { received: true, queued: true });
/** The app forwarded to already had it; 409 also stops the service's retries (consumer rule 2). */
export const APP_HAD_IT = reply(409, { received: true, forwardStatus: 409 });
export const NOT_FOUND = reply(404, { error: 'not found' });
export const NOT_ALLOWED = reply(405, { error: 'method not allowed' }, { allow: 'POST' });
export const MISSING_SIGNATURE = reply(401, { error: 'missing X-Service-Signature header' });
export const BAD_SIGNATURE = reply(401, { error: 'X-Service-Signature does not verify over the body' });
export const STORE_FAILED = reply(500, { error: 'could not record the delivery; retry' });
/** The delivery could not be shown (or its line written): not recorded, so the service's retry shows it. */
export const NOT_SHOWN = reply(500, { error: 'could not show the delivery; retry' });
// Connection: close: node drops the socket after the answer, so nothing more is read from it.
export const SHUTTING_DOWN = reply(503, { error: 'receiver is shutting down; retry' }, { connection: 'close' });

export function tooLarge(maxBytes: number): Reply {
  return reply(413, { error: `body larger than ${maxBytes} bytes` }, { connection: 'close' });
}

export function send(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}
