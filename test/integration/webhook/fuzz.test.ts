/**
 * Property: whatever malformed request arrives (garbage bytes, bad headers, truncated or huge bodies,
 * wrong JSON, bad signatures), the receiver answers a 4xx, reports no event, and keeps serving good
 * deliveries. Cases come from a seeded generator so a failure names a reproducible seed and case.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { signWebhookBody } from '../../../src/crypto/webhook-signature.js';
import { createAsyncWebhookVerifier } from '../../../src/crypto/webhook-signature.js';
import { deliver, envelope, keys, post, startRecorder, type Recorder } from './helpers.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const SEED = Number(process.env.WEBHOOK_FUZZ_SEED ?? 0x5eed);
const MAX_BODY = 64 * 1024;

let recorder: Recorder;
let host: string;
let port: number;
beforeAll(async () => {
  // The threadpool verifier: what `svc webhook listen` runs.
  recorder = await startRecorder({
    verify: createAsyncWebhookVerifier(keys.publicKeyPem),
    maxBodyBytes: MAX_BODY,
    requestTimeoutMs: 600,
  });
  port = recorder.receiver.port;
  host = `127.0.0.1:${port}`;
});
afterAll(() => recorder.stop());

/** Writes bytes on a fresh socket and returns the status of the answer, or 0 if the socket closed silently. */
function raw(bytes: Buffer | string, options: { halfClose?: boolean } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(match ? Number(match[1]) : 0);
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      answer += d;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? done() : reject(error),
    );
    socket.on('close', done);
    socket.write(bytes, () => {
      if (options.halfClose) socket.end();
    });
    setTimeout(() => socket.destroy(), 5000).unref();
  });
}

function randomBytes(rand: () => number, max: number): Buffer {
  const b = Buffer.alloc(1 + Math.floor(rand() * max));
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

type Case = { name: string; run(): Promise<number> };

/** One generated malformed request; each returns the status the receiver answered. */
function generate(rand: () => number, i: number): Case {
  const good = JSON.stringify(envelope());
  const signed = (body: string | Buffer) => ({ 'x-service-signature': signWebhookBody(body, keys.privateKeyPem) });
  const kind = Math.floor(rand() * 10);
  switch (kind) {
    case 0: {
      const bytes = Buffer.concat([randomBytes(rand, 300), Buffer.from('\r\n\r\n')]);
      return { name: `garbage bytes (${bytes.length})`, run: () => raw(bytes, { halfClose: true }) };
    }
    case 1: {
      const body = good.slice(0, Math.floor(rand() * good.length));
      const head = `POST /webhooks HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${good.length}\r\n\r\n`;
      return {
        name: `truncated body, then EOF (${body.length}/${good.length})`,
        run: () => raw(head + body, { halfClose: true }),
      };
    }
    case 2: {
      const bad = pick(rand, [
        'Bad Header: x',
        'X-A: \u0001\u0002',
        'Content-Length: 1\r\nContent-Length: 2',
        'Content-Length: -5',
        'Transfer-Encoding: chunked\r\nContent-Length: 3',
        'Content-Length: 12abc',
        ':empty-name',
      ]);
      return {
        name: `bad header ${JSON.stringify(bad)}`,
        run: () => raw(`POST /webhooks HTTP/1.1\r\nHost: ${host}\r\n${bad}\r\n\r\n${good}`, { halfClose: true }),
      };
    }
    case 3: {
      const chunk = pick(rand, ['zz\r\nabc\r\n', '5\r\nabc\r\n0\r\n\r\n', '-1\r\n\r\n', 'ffffffffffffffffff\r\n']);
      return {
        name: `bad chunked encoding ${JSON.stringify(chunk)}`,
        run: () =>
          raw(`POST /webhooks HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`, {
            halfClose: true,
          }),
      };
    }
    case 4: {
      const declared = MAX_BODY + 1 + Math.floor(rand() * 1e9);
      return {
        name: `declared huge body (${declared})`,
        run: () => raw(`POST /webhooks HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${declared}\r\n\r\n${good}`),
      };
    }
    case 5: {
      const size = MAX_BODY + 1 + Math.floor(rand() * MAX_BODY);
      // An async iterable has no length: undici sends it chunked, so only the running count can stop it.
      const chunks = async function* () {
        for (let sent = 0; sent < size; sent += 16 * 1024) yield Buffer.alloc(Math.min(16 * 1024, size - sent), 0x7b);
      };
      return {
        name: `streamed huge body (${size})`,
        run: async () => {
          const res = await request(`http://${host}/webhooks`, { method: 'POST', body: Readable.from(chunks()) });
          await res.body.dump();
          return res.statusCode;
        },
      };
    }
    case 6: {
      const body = pick(rand, [
        good.slice(0, -1),
        `${good}x`,
        '{}',
        '[]',
        'null',
        '"str"',
        JSON.stringify({ ...JSON.parse(good), id: null }),
        JSON.stringify({ ...JSON.parse(good), data: [1] }),
        JSON.stringify({ ...JSON.parse(good), type: 7 }),
      ]);
      return {
        name: `signed wrong JSON ${body.slice(0, 40)}`,
        run: async () => (await post(`http://${host}/webhooks`, body, signed(body))).status,
      };
    }
    case 7: {
      const body = randomBytes(rand, 2000);
      return {
        name: `signed random bytes (${body.length})`,
        run: async () => (await post(`http://${host}/webhooks`, body, signed(body))).status,
      };
    }
    case 8: {
      const header = pick(rand, [
        '',
        '{}',
        '{"v":"1"}',
        '{"v":"2","s":"AAAA"}',
        '{"v":"1","s":"!!!"}',
        'AAAA',
        randomBytes(rand, 100).toString('base64'),
        JSON.stringify({ v: '1', s: randomBytes(rand, 72).toString('base64') }),
      ]);
      return {
        name: `bad signature header ${header.slice(0, 30)}`,
        run: async () =>
          (await post(`http://${host}/webhooks`, good, header === '' ? {} : { 'x-service-signature': header })).status,
      };
    }
    default: {
      const method = pick(rand, ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
      const path = pick(rand, ['/webhooks', '/', '/webhooks/', '/WEBHOOKS', `/x${i}`]);
      const expected = path === '/webhooks' ? 405 : 404;
      return {
        name: `${method} ${path} (expect ${expected})`,
        run: async () =>
          (await raw(`${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`, {
            halfClose: true,
          })) === expected
            ? 400
            : -1,
      };
    }
  }
}

describe(`webhook receiver under malformed input (seed ${SEED})`, () => {
  it('answers every generated malformed request with a 4xx and keeps serving', async () => {
    const rand = seededRandom(SEED);
    const cases = Array.from({ length: 240 }, (_, i) => generate(rand, i));
    let good = 0;
    for (let i = 0; i < cases.length; i += 12) {
      const batch = cases.slice(i, i + 12);
      const statuses = await Promise.all(batch.map((c) => c.run()));
      batch.forEach((c, j) => {
        expect({ case: c.name, status: statuses[j]! >= 400 && statuses[j]! < 500 }).toEqual({
          case: c.name,
          status: true,
        });
      });
      // Between batches, a real delivery still gets through.
      expect((await deliver(recorder.receiver.url, envelope())).status).toBe(200);
      good++;
    }
    expect(recorder.events).toHaveLength(good);
  });

  it('answers 408 to bodies or headers that stop arriving, then keeps serving', async () => {
    const good = JSON.stringify(envelope());
    const statuses = await Promise.all([
      raw(`POST /webhooks HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${good.length}\r\n\r\n${good.slice(0, 10)}`),
      raw(`POST /webhooks HTTP/1.1\r\nHost: ${host}\r\n`),
    ]);
    expect(statuses).toEqual([408, 408]);
    expect((await deliver(recorder.receiver.url, envelope())).status).toBe(200);
  });
});
