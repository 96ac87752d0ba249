/**
 * A server that answers 200 PROCESSING with an expiresAt far ahead cannot keep a
 * signed flow re-sending. The flow's time (the client's timeout, --timeout) bounds all its steps,
 * and the re-sends are capped. Time is an injected clock moved by the injected sleep: no waiting.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PROCESSING_RESENDS, signedRequest } from '../../../src/signing/index.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../../../src/http/index.js';
import { StillProcessingError } from '../../../src/errors.js';

const DAY_MS = 24 * 3600 * 1000;

/** A server that challenges once, then answers PROCESSING forever; each answer takes `latencyMs`. */
function forever(clock: { ms: number }, timeoutMs: number | undefined, latencyMs = 50) {
  const sent: RequestOptions[] = [];
  const client: ApiClient = {
    baseUrl: 'http://127.0.0.1:1/2025-10-13',
    timeoutMs,
    async request<T>(req: RequestOptions) {
      sent.push(req);
      clock.ms += latencyMs;
      const body =
        sent.length === 1
          ? { payloadToSign: 'p', requestId: 'Request:1', expiresAt: new Date(clock.ms + 30 * DAY_MS).toISOString() }
          : { status: 'PROCESSING' };
      return { status: sent.length === 1 ? 202 : 200, headers: {}, text: '', body } as ApiResponse<T>;
    },
  };
  return { client, sent };
}

function seams(clock: { ms: number }) {
  return {
    now: () => clock.ms,
    sleep: async (ms: number) => {
      clock.ms += ms;
    },
  };
}

describe('a PROCESSING loop is bounded', () => {
  it('--timeout 5 bounds the whole flow: StillProcessingError after at most 5 s of (virtual) time', async () => {
    const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
    const started = clock.ms;
    const { client, sent } = forever(clock, 5_000);
    const error = await signedRequest(client, { method: 'POST', path: '/r', sign: () => 's', ...seams(clock) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StillProcessingError);
    expect((error as Error).message).toMatch(
      /still PROCESSING after \d+ answers: the time allowed \(5s, the timeout\)/,
    );
    expect(clock.ms - started).toBeLessThanOrEqual(5_000 + 50);
    // Backoff 200 ms doubling to 2 s: a handful of re-sends fit in 5 s, not 16.
    expect(sent.length).toBeLessThan(8);
    // Each request is told what is left of the flow's time.
    const last = sent[sent.length - 1]!;
    expect(last.timeoutMs).toBeGreaterThan(0);
    expect(last.timeoutMs).toBeLessThanOrEqual(5_000);
  });

  it(`with time to spare, the re-sends stop at ${MAX_PROCESSING_RESENDS}`, async () => {
    const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
    const { client, sent } = forever(clock, DAY_MS);
    const error = await signedRequest(client, { method: 'POST', path: '/r', sign: () => 's', ...seams(clock) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StillProcessingError);
    expect((error as Error).message).toContain(`at most ${MAX_PROCESSING_RESENDS} times`);
    // The challenge call, the signed retry, then the re-sends.
    expect(sent).toHaveLength(2 + MAX_PROCESSING_RESENDS);
  });

  it('time a person spends confirming the challenge does not count', async () => {
    const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
    let answers = 0;
    const client: ApiClient = {
      baseUrl: 'http://127.0.0.1:1/2025-10-13',
      timeoutMs: 5_000,
      async request<T>() {
        answers++;
        const body =
          answers === 1
            ? { payloadToSign: 'p', requestId: 'Request:1', expiresAt: new Date(clock.ms + DAY_MS).toISOString() }
            : answers < 4
              ? { status: 'PROCESSING' }
              : { id: 'Session:1' };
        return { status: answers === 1 ? 202 : answers < 4 ? 200 : 201, headers: {}, text: '', body } as ApiResponse<T>;
      },
    };
    const res = await signedRequest(client, {
      method: 'POST',
      path: '/r',
      sign: () => 's',
      hooks: {
        onChallenge: () => {
          clock.ms += 60_000; // a minute reading the prompt
        },
      },
      ...seams(clock),
    });
    expect(res.status).toBe(201);
  });
});
