/**
 * The transport of a direct connection, most commands' only one: node:http (node:https for an
 * https:// URL, loaded only then). Node parses HTTP natively, so a command making a request or two
 * reads, compiles and runs no HTTP library of its own (undici, with its WebAssembly parser, is
 * loaded only for a proxy or a caller's dispatcher: undici-transport.ts). Node's global agent
 * keeps the connection open for the next step of a flow and does not hold the process open.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import * as http from 'node:http';

/** One request as the client sends it; the signal ends it (the caller's abort or its timeout). */
export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  timeoutMs: number;
}

/** An answer whose body has not been read yet. */
export interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>;
  body: Readable;
}

export async function nodeTransport(x: Exchange): Promise<Answer> {
  const transport = x.url.startsWith('https:') ? await import('node:https') : http;
  const headers =
    x.body === undefined ? x.headers : { ...x.headers, 'content-length': String(Buffer.byteLength(x.body)) };
  return new Promise((resolve, reject) => {
    const req = transport.request(x.url, { method: x.method, headers, signal: x.signal }, (res) =>
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    req.on('error', reject);
    req.end(x.body);
  });
}
