/**
 * readBodyText over a stream's events: the whole body in order, an end without an answer's end
 * (closed with no error of its own) refused rather than waited on forever, and the stream's own
 * error passed on as it is.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBodyText } from '../../../src/http/read-body.js';

const URL = 'http://127.0.0.1:9/customers';

function answer(body: Readable, headers: Record<string, string> = {}) {
  return { statusCode: 200, headers, body };
}

describe('readBodyText', () => {
  it('joins the chunks in order, multi-byte characters split across chunks included', async () => {
    const euro = Buffer.from('€', 'utf8');
    const body = Readable.from([Buffer.from('{"a":"'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('"}')], {
      objectMode: false,
    });
    expect(await readBodyText(answer(body), URL, 1024)).toBe('{"a":"€"}');
  });

  it('a stream closed before its end with no error is refused as a premature close', async () => {
    const body = new Readable({ read() {} });
    body.push('{"data":[');
    setImmediate(() => body.destroy());
    const error = await readBodyText(answer(body), URL, 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toBe('ERR_STREAM_PREMATURE_CLOSE');
  });

  it("the stream's own error is the one passed on", async () => {
    const body = new Readable({ read() {} });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    setImmediate(() => body.destroy(reset));
    await expect(readBodyText(answer(body), URL, 1024)).rejects.toBe(reset);
  });
});
