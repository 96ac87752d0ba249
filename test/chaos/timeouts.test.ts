/**
 * Header and body timeouts of both servers, with the limit made short (1 s) through their options:
 * a client that stops sending headers or body gets 408 (or is dropped) soon after the limit, and a
 * good request sent meanwhile is answered at once. In-process, since the CLIs use the 30 s default.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { openSeenIds } from '../../src/webhook/dedupe.js';
import { createWebhookReceiver } from '../../src/webhook/receiver.js';
import { exchange, stalled } from './attacks.js';
import { printFigures, report } from './report.js';

afterAll(printFigures);
const LIMIT_MS = 1000;
const CRLF = '\r\n';

async function check(
  suite: string,
  port: number,
  partialHeaders: Buffer,
  partialBody: Buffer,
  good: Buffer,
): Promise<void> {
  const [headers, body, meanwhile] = await Promise.all([
    stalled(port, partialHeaders, 8000),
    stalled(port, partialBody, 8000),
    // Sent while both stall: answered without waiting for them.
    new Promise((r) => setTimeout(r, 200)).then(async () => {
      const started = performance.now();
      const r = await exchange(port, good, 1, 3000);
      return { status: r.statuses[0], ms: performance.now() - started };
    }),
  ]);
  const ended = (r: { status: number | undefined; closed: boolean; ms: number }) =>
    (r.status === 408 || (r.status === undefined && r.closed)) && r.ms < LIMIT_MS + 3000;
  for (const [part, r] of [
    ['headers', headers],
    ['body', body],
  ] as const) {
    report({
      suite,
      attack: `${part} stopped half-way (limit ${LIMIT_MS} ms)`,
      tried: 1,
      survived: ended(r) ? 1 : 0,
      lost: ended(r) ? 0 : 1,
      detail: `${r.status ?? 'dropped'} after ${Math.round(r.ms)} ms`,
    });
  }
  report({
    suite,
    attack: 'good request while both stall',
    tried: 1,
    survived: meanwhile.status! < 500 ? 1 : 0,
    lost: meanwhile.status! < 500 ? 0 : 1,
    detail: `${meanwhile.status} in ${Math.round(meanwhile.ms)} ms`,
  });
  expect(ended(headers), JSON.stringify(headers)).toBe(true);
  expect(ended(body), JSON.stringify(body)).toBe(true);
  expect(meanwhile.status).toBeLessThan(500);
  expect(meanwhile.ms).toBeLessThan(LIMIT_MS);
}

describe('slow clients against short header and body timeouts', () => {
  it('the emulator answers 408 and keeps serving others', async () => {
    const emu = await startEmulator({ port: 0, requestTimeoutMs: LIMIT_MS });
    try {
      const base = new URL(emu.baseUrl);
      const auth = `Authorization: Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}${CRLF}`;
      await check(
        'emulator',
        Number(base.port),
        Buffer.from(`GET ${base.pathname}/cards/x HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}X-Slow: `),
        Buffer.from(
          `POST ${base.pathname}/cards HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${auth}Content-Type: application/json${CRLF}Content-Length: 100${CRLF}${CRLF}{"cardholderId":`,
        ),
        Buffer.from(
          `GET ${base.pathname}/cards/${emu.fixtures.cardId} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${auth}${CRLF}`,
        ),
      );
    } finally {
      await emu.close();
    }
  }, 30_000);

  it('the listener answers 408 and keeps serving others', async () => {
    const dedupe = openSeenIds();
    const receiver = await createWebhookReceiver({
      port: 0,
      verify: undefined,
      dedupe,
      requestTimeoutMs: LIMIT_MS,
      onEvent: () => {},
    });
    try {
      const body = JSON.stringify({
        id: 'Webhook:1',
        type: 'CARD.STATE_CHANGE',
        timestamp: new Date().toISOString(),
        data: {},
      });
      await check(
        'listener',
        receiver.port,
        Buffer.from(`POST /webhooks HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}X-Slow: `),
        Buffer.from(
          `POST /webhooks HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Content-Type: application/json${CRLF}Content-Length: 500${CRLF}${CRLF}{"id":`,
        ),
        Buffer.from(
          `POST /webhooks HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Content-Type: application/json${CRLF}Content-Length: ${body.length}${CRLF}${CRLF}${body}`,
        ),
      );
    } finally {
      await receiver.close();
      await dedupe.close();
    }
  }, 30_000);
});
