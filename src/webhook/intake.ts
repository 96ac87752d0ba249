/**
 * What a request must pass before the receiver reads its body (the path, the method, the declared
 * size), and the bounded body reader itself.
 */
import type { IncomingMessage } from 'node:http';
import { NOT_ALLOWED, NOT_FOUND, type Reply } from './replies.js';

export interface Refusal {
  reply: Reply;
  reason: string;
}

/** Why the request is refused before any of its body is read, or undefined to go on. */
export function refuseEarly(req: IncomingMessage, path: string, maxBody: number, tooLarge: Reply): Refusal | undefined {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if ((q === -1 ? url : url.slice(0, q)) !== path)
    return { reply: NOT_FOUND, reason: `${req.method} ${url}: not found` };
  if (req.method !== 'POST') return { reply: NOT_ALLOWED, reason: `${req.method} ${path}: method not allowed` };
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBody)
    return { reply: tooLarge, reason: `body of ${declared} bytes is over the limit` };
  return undefined;
}

const EMPTY = Buffer.alloc(0);
const noop = () => {};

/**
 * Reads the whole body, then calls onBody once; or calls onTooLarge as soon as more than maxBody
 * bytes arrived (a chunked body declares no length) and ignores the rest. A single-chunk body,
 * the usual case, is handed on as received, without a copy.
 */
export function readBody(
  req: IncomingMessage,
  maxBody: number,
  onBody: (body: Buffer) => void,
  onTooLarge: () => void,
): void {
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
      return onTooLarge();
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (!over) onBody(chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY));
  });
}
