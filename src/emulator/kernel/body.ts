/**
 * Request bodies: read up to a limit (400 INVALID_INPUT naming `body` beyond it, the rest drained)
 * and, when a handler asks, parsed as one JSON object (400 INVALID_INPUT naming `body` otherwise).
 * An oversized body is a 400, not a 413: the spec's error statuses are 400, 401, 404 and 500, and
 * the public API description declares no 413 on any operation.
 */
import type { IncomingMessage } from 'node:http';
import { type HttpError, invalidInput } from './errors.js';

const MAX_BODY_BYTES = 1024 * 1024;
// fatal: bytes that are not UTF-8 are refused, not silently turned into U+FFFD inside a field.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** application/json, or a +json type, with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The refusal of a body over `limit` bytes (a file part over its own limit names `file`). */
export function tooLarge(limit: number, field = 'body', what = 'The request body'): HttpError {
  const message = `${what} exceeds ${limit} bytes`;
  return invalidInput([{ field, constraint: { maxLength: limit }, message }], message);
}

/**
 * Reads the body up to limit bytes; beyond it, the rest is drained and the 400 is answered. One
 * declared too large by Content-Length is refused before `admitted` is called (which invites the
 * body of an `Expect: 100-continue` request), so such a client never sends it.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES, admitted?: () => void): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  admitted?.();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

export function parseJsonObject(req: IncomingMessage, raw: Buffer): Record<string, unknown> {
  const bodyError = (message: string) =>
    invalidInput([{ field: 'body', constraint: { format: 'json' }, message }], message);
  if (raw.length === 0) throw bodyError('A JSON object body is required');
  // The spec gives these bodies as content type application/json; a body sent without it (or as
  // text/plain) is not read as JSON by the service either, so it is refused here too.
  const type = req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) throw bodyError(`Content-Type must be application/json, not ${type ?? 'absent'}`);
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw bodyError('The body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw bodyError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bodyError('The body must be a JSON object');
  return value as Record<string, unknown>;
}
