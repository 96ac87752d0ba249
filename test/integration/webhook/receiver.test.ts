import { createPrivateKey, sign } from 'node:crypto';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../emulator/support.js';
import { expectContinue } from '../../helpers/expect-continue.js';
import { request } from 'undici';
import { createWebhookVerifier, signWebhookBody } from '../../../src/crypto/webhook-signature.js';
import { openSeenIds, type SeenIds } from '../../../src/webhook/dedupe.js';
import { createForwarder } from '../../../src/webhook/forward.js';
import { createAsyncWebhookVerifier } from '../../../src/crypto/webhook-signature.js';
import {
  deliver,
  envelope,
  keys,
  localApp,
  otherKeys,
  post,
  startRecorder,
  type LocalApp,
  type Recorder,
} from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

const running: Array<{ stop(): Promise<void> }> = [];
/** Waits for a condition the test caused (an answer, a retry scheduled), however slow the machine. */
const until = (condition: () => boolean) => eventually(() => (condition() ? true : undefined), 30_000);
async function recorder(options: Parameters<typeof startRecorder>[0] = {}): Promise<Recorder> {
  const r = await startRecorder(options);
  running.push(r);
  return r;
}
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

describe('webhook receiver: signatures', () => {
  it('accepts a delivery signed by signWebhookBody and reports the event once', async () => {
    const { receiver, events } = await recorder();
    const event = envelope();
    const res = await deliver(receiver.url, event);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: true });
    expect(events).toEqual([{ event, body: Buffer.from(JSON.stringify(event)), verified: true }]); // the bytes as received
    expect(receiver.stats).toMatchObject({ received: 1, duplicates: 0, rejected: 0 });
  });

  it('accepts deliveries signed independently with node:crypto (JSON header and bare base64)', async () => {
    const { receiver, events } = await recorder();
    const key = createPrivateKey(keys.privateKeyPem);
    for (const form of ['json', 'bare'] as const) {
      const body = JSON.stringify(envelope());
      const der = sign('sha256', Buffer.from(body), { key, dsaEncoding: 'der' }).toString('base64');
      const header = form === 'json' ? JSON.stringify({ v: '1', s: der }) : der;
      expect((await post(receiver.url, body, { 'x-service-signature': header })).status).toBe(200);
    }
    expect(events).toHaveLength(2);
  });

  it('rejects a tampered body, a wrong key and a missing header with 401, reporting no event', async () => {
    const { receiver, events, rejections } = await recorder();
    const body = JSON.stringify(envelope());
    const signature = signWebhookBody(body, keys.privateKeyPem);
    const tampered = body.replace('"ACTIVE"', '"FROZEN"');
    expect(tampered).not.toBe(body);

    const results = [
      await post(receiver.url, tampered, { 'x-service-signature': signature }),
      await deliver(receiver.url, JSON.parse(body), otherKeys.privateKeyPem),
      await post(receiver.url, body),
      await post(receiver.url, body, { 'x-service-signature': 'garbage' }),
      await post(receiver.url, body + ' ', { 'x-service-signature': signature }), // one extra byte
    ];
    expect(results.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(events).toEqual([]);
    expect(rejections.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(rejections[2]!.reason).toMatch(/missing X-Service-Signature/);
    expect(rejections[0]!.reason).toMatch(/does not verify/);
    expect(receiver.stats.rejected).toBe(5);
  });

  it('with the threadpool verifier: a good delivery is accepted, a tampered one refused', async () => {
    const { receiver, events } = await recorder({ verify: createAsyncWebhookVerifier(keys.publicKeyPem) });
    const body = JSON.stringify(envelope());
    const signature = signWebhookBody(body, keys.privateKeyPem);
    const [good, bad] = await Promise.all([
      post(receiver.url, body, { 'x-service-signature': signature }),
      post(receiver.url, body.replace('ACTIVE', 'FROZEN'), { 'x-service-signature': signature }),
    ]);
    expect([good.status, bad.status]).toEqual([200, 401]);
    expect(events).toHaveLength(1);
  });

  it('with verification off (--skip-verify) accepts unsigned deliveries, marked unverified', async () => {
    const { receiver, events } = await recorder({ verify: undefined });
    const event = envelope();
    expect((await post(receiver.url, JSON.stringify(event))).status).toBe(200);
    expect(events).toEqual([{ event, body: Buffer.from(JSON.stringify(event)), verified: false }]);
  });
});

describe('webhook receiver: requests that are not deliveries', () => {
  it('answers 404 off the path, 405 with Allow for other methods, and ignores the query string', async () => {
    const { receiver, events } = await recorder();
    const base = receiver.url.replace('/webhooks', '');
    expect((await deliver(`${base}/other`, envelope())).status).toBe(404);
    const get = await request(receiver.url);
    await get.body.dump();
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await deliver(`${receiver.url}?attempt=2`, envelope())).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('answers 400 to a signed body that is not a valid envelope', async () => {
    const { receiver, events } = await recorder();
    const bodies = [
      'not json',
      '[]',
      JSON.stringify({ ...envelope(), id: 5 }),
      JSON.stringify({ ...envelope(), data: 'x' }),
      JSON.stringify({ ...envelope(), timestamp: 'soon' }),
    ];
    for (const body of bodies) {
      const res = await post(receiver.url, body, { 'x-service-signature': signWebhookBody(body, keys.privateKeyPem) });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toEqual(expect.any(String));
    }
    expect(events).toEqual([]);
  });

  it('answers 413 to a declared or streamed body over the limit and keeps serving', async () => {
    const { receiver, events } = await recorder({ maxBodyBytes: 1024 * 1024 });
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    expect((await post(receiver.url, big)).status).toBe(413);
    async function* stream() {
      for (let i = 0; i < 40; i++) yield Buffer.alloc(64 * 1024, 0x20); // chunked: no Content-Length
    }
    const res = await request(receiver.url, { method: 'POST', body: Readable.from(stream()) });
    await res.body.dump();
    expect(res.statusCode).toBe(413);
    expect((await deliver(receiver.url, envelope())).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});

describe('webhook receiver: Expect: 100-continue', () => {
  it('refuses an oversized declared body with 413 before inviting it (no 100 Continue)', async () => {
    const { receiver, rejections } = await recorder({ maxBodyBytes: 1024 });
    const head = `POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n`;
    expect(await expectContinue(receiver.url, head, 'x'.repeat(5000))).toEqual(['HTTP/1.1 413']);
    expect(rejections.map((r) => r.status)).toEqual([413]);
  });

  it('refuses a wrong path or method without inviting the body, and invites a delivery', async () => {
    const { receiver, events } = await recorder();
    const at = (line: string, length: number) =>
      `${line} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
    expect(await expectContinue(receiver.url, at('POST /elsewhere', 2), '{}')).toEqual(['HTTP/1.1 404']);
    expect(await expectContinue(receiver.url, at('PUT /webhooks', 2), '{}')).toEqual(['HTTP/1.1 405']);
    const body = JSON.stringify(envelope());
    const signed = at('POST /webhooks', Buffer.byteLength(body)).replace(
      '\r\n\r\n',
      `\r\nX-Service-Signature: ${signWebhookBody(body, keys.privateKeyPem)}\r\nConnection: close\r\n\r\n`,
    );
    expect(await expectContinue(receiver.url, signed, body)).toEqual(['HTTP/1.1 100', 'HTTP/1.1 200']);
    expect(events).toHaveLength(1);
  });
});

describe('webhook receiver: duplicates', () => {
  it('answers a replayed id 200 as a duplicate and never reports it twice', async () => {
    const { receiver, events, duplicates } = await recorder();
    const event = envelope();
    await deliver(receiver.url, event);
    const again = await deliver(receiver.url, event);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
    expect(events).toHaveLength(1);
    expect(duplicates.map((d) => d.id)).toEqual([event.id]);
  });

  it('reports one event when the same id arrives many times at once (store on: async recording)', async () => {
    const storePath = join(tempDir('svc-wh-'), 'seen.log');
    const { receiver, events, duplicates } = await recorder({ storePath });
    const event = envelope();
    const results = await Promise.all(Array.from({ length: 12 }, () => deliver(receiver.url, event)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(events).toHaveLength(1);
    expect(duplicates).toHaveLength(11);
  });

  it('after a restart with the same store, an old id is still a duplicate', async () => {
    const storePath = join(tempDir('svc-wh-'), 'seen.log');
    const event = envelope();
    const first = await startRecorder({ storePath });
    await deliver(first.receiver.url, event);
    await first.stop();

    const second = await recorder({ storePath });
    const res = await deliver(second.receiver.url, event);
    expect(JSON.parse(res.body)).toEqual({ received: true, duplicate: true });
    expect(second.events).toEqual([]);
    expect((await deliver(second.receiver.url, envelope())).status).toBe(200);
    expect(second.events).toHaveLength(1);
  });

  it('filtered event types are acknowledged and recorded but not reported, nor are their repeats', async () => {
    const { receiver, events, duplicates } = await recorder({ events: ['CARD.FUNDING_SOURCE_CHANGE'] });
    const state = envelope();
    expect((await deliver(receiver.url, state)).status).toBe(200);
    const again = await deliver(receiver.url, state);
    expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
    const funding = envelope({ type: 'CARD.FUNDING_SOURCE_CHANGE' });
    await deliver(receiver.url, funding);
    await deliver(receiver.url, funding);
    expect(events.map((e) => e.event.id)).toEqual([funding.id]);
    // A "duplicate" line for an event never shown would be noise the filter was asked to remove.
    expect(duplicates.map((e) => e.id)).toEqual([funding.id]);
    expect(receiver.stats).toMatchObject({ received: 2, filtered: 1, duplicates: 2 });
  });

  /** The in-memory store, with the next journal write (`begin`) or seen record failing like a full disk. */
  function flakyStore(failing: 'begin' | 'record'): SeenIds {
    const real = openSeenIds();
    let failNext = true;
    const fail = () => {
      failNext = false;
      return Promise.reject(new Error('disk full'));
    };
    return {
      has: (id) => real.has(id),
      begin: (id, body, headers) => (failing === 'begin' && failNext ? fail() : real.begin(id, body, headers)),
      release: (id) => real.release(id),
      queue: (id) => real.queue(id),
      readBegun: () => undefined,
      interrupted: () => real.interrupted(),
      notes: [],
      durable: false,
      record: (id) => (failing === 'record' && failNext ? fail() : real.record(id)),
      get size() {
        return real.size;
      },
      flush: () => real.flush(),
      close: () => real.close(),
    };
  }

  it('a delivery that could not be journaled gets 500, is not shown, and its retry is accepted', async () => {
    const errors: unknown[] = [];
    const { receiver, events } = await recorder({ dedupe: flakyStore('begin'), onError: (e) => errors.push(e) });
    const event = envelope();
    expect((await deliver(receiver.url, event)).status).toBe(500);
    expect(events).toEqual([]);
    expect(String(errors[0])).toMatch(/disk full/);
    expect((await deliver(receiver.url, event)).status).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]!.redelivered).toBeUndefined();
  });

  it('a delivery shown but not recorded gets 500; its retry is shown again, marked redelivered', async () => {
    const errors: unknown[] = [];
    const { receiver, events } = await recorder({ dedupe: flakyStore('record'), onError: (e) => errors.push(e) });
    const event = envelope();
    expect((await deliver(receiver.url, event)).status).toBe(500);
    expect(String(errors[0])).toMatch(/disk full/);
    expect((await deliver(receiver.url, event)).status).toBe(200);
    expect(events.map((e) => [e.event.id, e.redelivered])).toEqual([
      [event.id, undefined],
      [event.id, true],
    ]);
    expect((await deliver(receiver.url, event)).status).toBe(200); // recorded now: a duplicate
    expect(events).toHaveLength(2);
  });
});

describe('webhook receiver: shutdown', () => {
  const later = <T>(ms: number, value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), ms));

  it('close() answers 503 to a delivery still verifying, and reports nothing', async () => {
    const check = createWebhookVerifier(keys.publicKeyPem);
    const r = await startRecorder({ verify: (body, header) => later(150, () => check(body, header)) });
    const verifying = deliver(r.receiver.url, envelope());
    await later(50, () => undefined); // the delivery is inside verification now
    const closed = r.receiver.close();
    expect((await verifying).status).toBe(503);
    await closed;
    expect(r.events).toEqual([]);
    expect(r.dedupe.size).toBe(0);
  });

  it('close() waits for a delivery being recorded: it is acknowledged and reported', async () => {
    const real = openSeenIds();
    const slow: SeenIds = {
      ...real,
      has: (id) => real.has(id),
      record: (id) => later(150, () => real.record(id)).then((durable) => durable),
      get size() {
        return real.size;
      },
    };
    const r = await startRecorder({ dedupe: slow });
    const recording = deliver(r.receiver.url, envelope());
    await later(50, () => undefined);
    await r.receiver.close();
    expect((await recording).status).toBe(200);
    expect(r.events).toHaveLength(1);
  });
});

describe('webhook receiver: --forward-to', () => {
  async function app(statuses: number[]): Promise<LocalApp> {
    const target = await localApp(statuses);
    running.push({ stop: () => target.close() });
    return target;
  }

  it('forwards the exact bytes and the service headers, and reports the app status', async () => {
    const target = await app([204]);
    const forwarder = createForwarder(target.url);
    running.push({ stop: () => forwarder.close() });
    const { receiver, events } = await recorder({ forwarder });
    // Odd spacing: a re-serialized body would differ.
    const body = `{ "id":"Webhook:${Date.now()}",  "type":"CARD.STATE_CHANGE","timestamp":"2025-10-13T00:00:00Z","data":{"id":"Card:1","state":"ACTIVE"} }`;
    const signature = signWebhookBody(body, keys.privateKeyPem);
    expect((await post(receiver.url, body, { 'x-service-signature': signature })).status).toBe(200);
    expect(target.seen).toHaveLength(1);
    expect(target.seen[0]!.body.toString()).toBe(body);
    expect(target.seen[0]!.headers['x-service-signature']).toBe(signature);
    expect(target.seen[0]!.headers['content-type']).toBe('application/json');
    expect(events[0]!.forward).toMatchObject({ ok: true, status: 204 });
    expect(events[0]!.forward!.ms).toBeGreaterThanOrEqual(0);
  });

  it('with --store, a failed forward is kept in the journal and retried with backoff: the service is answered 200 queued', async () => {
    const target = await app([500, 503, 204]);
    const forwarder = createForwarder(target.url);
    running.push({ stop: () => forwarder.close() });
    const queued: Array<[number, number]> = [];
    // The retries' clock is the test's: each is run when the test says, so no timer decides the order.
    const scheduled: Array<{ run: () => void; ms: number }> = [];
    const storePath = join(tempDir('svc-queue-'), 'seen.log');
    const { receiver, events } = await recorder({
      forwarder,
      storePath,
      forwardRetry: { initialMs: 100, maxMs: 1000, random: () => 1 }, // no jitter: each wait is its cap
      onForwardQueued: (_e, r, _attempt, wait) => queued.push([r!.status, wait]),
      scheduleRetry: (run, ms) => scheduled.push({ run, ms }),
    });
    const event = envelope();
    const first = await deliver(receiver.url, event);
    expect([first.status, JSON.parse(first.body)]).toEqual([200, { received: true, queued: true }]);
    expect(events).toEqual([]); // not shown before the app has it
    const redelivered = await deliver(receiver.url, event); // the service retrying meanwhile: still ours
    expect(JSON.parse(redelivered.body)).toEqual({ received: true, queued: true });
    expect(scheduled.map((s) => s.ms)).toEqual([100]); // the redelivery started nothing of its own

    scheduled[0]!.run(); // 100 ms later: the app answers 503
    await until(() => scheduled.length === 2);
    scheduled[1]!.run(); // 200 ms after that: 204
    await until(() => events.length === 1);
    expect(events.map((e) => [e.event.id, e.forward?.status])).toEqual([[event.id, 204]]);
    expect(queued).toEqual([
      [500, 100],
      [503, 200],
    ]); // backoff doubles
    expect(scheduled.map((s) => s.ms)).toEqual([100, 200]);
    expect(target.seen).toHaveLength(3);
    expect(JSON.parse((await deliver(receiver.url, event)).body)).toEqual({ received: true, duplicate: true });
  });

  it('returns the app error to the service without recording, so the retry is accepted', async () => {
    const target = await app([500, 200]);
    const forwarder = createForwarder(target.url);
    running.push({ stop: () => forwarder.close() });
    const failures: number[] = [];
    const { receiver, events } = await recorder({ forwarder, onForwardFailed: (_e, r) => failures.push(r.status) });
    const event = envelope();
    expect((await deliver(receiver.url, event)).status).toBe(500);
    expect(events).toEqual([]);
    expect(failures).toEqual([500]);
    const retry = await deliver(receiver.url, event);
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual({ received: true });
    expect(events).toHaveLength(1);
    expect(target.seen).toHaveLength(2);
  });

  it('an app answering 409 already had it: the event is recorded and reported once, and 409 goes back', async () => {
    const target = await app([409]);
    const forwarder = createForwarder(target.url);
    running.push({ stop: () => forwarder.close() });
    const failures: number[] = [];
    const { receiver, events } = await recorder({ forwarder, onForwardFailed: (_e, r) => failures.push(r.status) });
    const event = envelope();
    const first = await deliver(receiver.url, event);
    expect(first.status).toBe(409); // the service stops retrying (consumer rule 2)
    expect(events.map((e) => [e.event.id, e.forward?.status])).toEqual([[event.id, 409]]);
    expect(failures).toEqual([]);
    // Should the service send it again anyway, it is a duplicate here; the app is not bothered twice.
    expect(JSON.parse((await deliver(receiver.url, event)).body)).toEqual({ received: true, duplicate: true });
    expect(target.seen).toHaveLength(1);
    expect(receiver.stats).toMatchObject({ received: 1, duplicates: 1, forwardFailed: 0 });
  });

  it('answers 502 when the app is unreachable', async () => {
    const target = await app([]);
    await new Promise<void>((resolve) => target.server.close(() => resolve()));
    const forwarder = createForwarder(target.url);
    running.push({ stop: () => forwarder.close() });
    const { receiver, events } = await recorder({ forwarder });
    const res = await deliver(receiver.url, envelope());
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body).error).toMatch(/ECONNREFUSED/);
    expect(events).toEqual([]);
  });

  it('refuses a forward URL that is not http(s)', () => {
    expect(() => createForwarder('ftp://127.0.0.1/x')).toThrow(/http\(s\) URL/);
    expect(() => createForwarder('not a url')).toThrow(/http\(s\) URL/);
  });
});
