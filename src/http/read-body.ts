/**
 * Reads an answer's body up to a limit. A server that streams without end, or answers a gigabyte,
 * must not be held all in memory (without a limit: 3 GiB in 5 s, then a message blaming
 * the network): past the limit the connection is dropped and the error says what happened.
 */
import { ResponseTooLargeError } from '../errors.js';
import type { Answer } from './node-transport.js';

/** 16 MiB: far above any answer of the service (a page holds at most 100 records). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function responseTooLarge(url: string, limitBytes: number, declared?: number): ResponseTooLargeError {
  const said = declared !== undefined ? ` (it announced ${declared} bytes)` : '';
  return new ResponseTooLargeError(
    `The server at ${url} answered with more than ${sizeText(limitBytes)}${said}; stopped reading its answer`,
    {
      url,
      limitBytes,
      hint: 'Check the base URL points at the payments service. If this answer really is that large, raise the limit with SERVICE_MAX_RESPONSE_MB.',
    },
  );
}

/** The body as text, or ResponseTooLargeError once more than limit bytes arrived (or were announced). */
export async function readBodyText(res: Answer, url: string, limit: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    throw responseTooLarge(url, limit, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > limit) {
      res.body.destroy();
      throw responseTooLarge(url, limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
