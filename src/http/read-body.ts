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

/**
 * The body as text, or ResponseTooLargeError once more than limit bytes arrived (or were announced).
 * Read through the stream's events rather than `for await`, whose async iterator and end-of-stream
 * helpers are a few dozen functions of Node's that a command would compile for its one answer.
 */
export function readBodyText(res: Answer, url: string, limit: number): Promise<string> {
  const { body } = res;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    body.destroy();
    return Promise.reject(responseTooLarge(url, limit, declared));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        reject(responseTooLarge(url, limit));
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    body.once('error', reject);
    // Closed before its end with no error of its own (a dropped connection): said as Node's streams say it.
    body.once('close', () => {
      if (!ended) reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}
