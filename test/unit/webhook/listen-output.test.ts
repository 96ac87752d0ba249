/**
 * How `svc webhook listen` puts delivery lines on stdout: the deliveries shown in one turn of the
 * event loop leave in one write, and none is reported written (so acknowledged) before that write.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderer } from '../../../commands/webhook/listen-output.js';
import { createUI } from '../../../commands/ui.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { envelope } from '../../integration/webhook/helpers.js';
import { eventRecord } from '../../../src/webhook/render.js';
import type { WebhookEvent } from '../../../src/webhook/envelope.js';

/** A stdout that counts the writes reaching it (one writev of many chunks counts once). */
function countingStdout(fail = false) {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done(fail ? new Error('EPIPE') : null);
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => (c.chunk as Buffer).toString('utf8')).join(''));
      done(fail ? new Error('EPIPE') : null);
    },
  });
  stream.on('error', () => {}); // the failed write's callback says it; the process's stdout is watched elsewhere
  return { stream, writes };
}

/** A delivery as the receiver reports it: the event and the bytes it was parsed from. */
function delivery(event: WebhookEvent, body = Buffer.from(JSON.stringify(event))) {
  return { kind: 'delivery' as const, event, body, verified: true };
}

function listenOutput(json: boolean, fail = false, jq?: string) {
  const deps = fakeDeps({ globals: { json, ...(jq !== undefined && { jq }) } });
  const stdout = countingStdout(fail);
  deps.io.stdout = stdout.stream;
  const out = renderer(createUI(deps), deps);
  out.ready();
  return { out, writes: stdout.writes };
}

describe('listen output', () => {
  for (const json of [true, false]) {
    it(`${json ? '--json' : 'text'}: deliveries shown in the same turn leave in one write, each reported written only after it`, async () => {
      const { out, writes } = listenOutput(json);
      const events = Array.from({ length: 5 }, () => envelope());
      const settled: boolean[] = [];
      const pending = events.map((event, i) =>
        Promise.resolve(out.render(delivery(event))).then(() => {
          settled[i] = writes.length > 0;
        }),
      );
      expect(writes).toEqual([]); // held until the turn ends
      await Promise.all(pending);
      expect(writes).toHaveLength(1);
      for (const event of events) expect(writes[0]).toContain(event.id);
      expect(settled).toEqual([true, true, true, true, true]);

      // The next turn's deliveries make the next write.
      const later = envelope();
      await out.render(delivery(later));
      expect(writes).toHaveLength(2);
      expect(writes[1]).toContain(later.id);
    });
  }

  it('a batch that cannot be written fails every delivery in it (none is acknowledged)', async () => {
    const { out } = listenOutput(true, true);
    const results = await Promise.allSettled([envelope(), envelope()].map((event) => out.render(delivery(event))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('--json: the line of a body as the service writes it is the record, byte for byte, with every outcome field', async () => {
    const { out, writes } = listenOutput(true);
    const event = envelope({ data: { id: 'Card:ünïcode', note: 'a "quoted" \\ line\nbreak' } });
    const forward = { ok: true, status: 202, ms: 12.34, url: 'http://127.0.0.1:9/hook' };
    await out.render({ ...delivery(event), forward, redelivered: true, attempt: 3 });
    await out.render(delivery(event));
    expect(writes.join('')).toBe(
      `${JSON.stringify(eventRecord(event, true, true, forward, 3))}\n${JSON.stringify(eventRecord(event, true))}\n`,
    );
  });

  it('--json: an unforwarded delivery, verified or not, redelivered or not, first attempt or not: the record, byte for byte', async () => {
    const { out, writes } = listenOutput(true);
    const event = envelope();
    const expected: string[] = [];
    for (const verified of [true, false])
      for (const redelivered of [false, true])
        for (const attempt of [undefined, 1, 2]) {
          await out.render({ ...delivery(event), verified, redelivered, ...(attempt && { attempt }) });
          expected.push(`${JSON.stringify(eventRecord(event, verified, redelivered, undefined, attempt))}\n`);
        }
    expect(writes.join('')).toBe(expected.join(''));
  });

  it('--json: a body spelled otherwise keeps its spelling (numbers, escapes, spaces) and reads as the same record', async () => {
    const { out, writes } = listenOutput(true);
    const event = envelope();
    const body = `{ "id" : ${JSON.stringify(event.id)}, "type":"CARD.STATE_CHANGE", "timestamp":"${event.timestamp}", "data": {"amount": 12345678901234567890, "note": "caf\\u00e9", "2": 1, "b": 2} }`;
    const parsed = JSON.parse(body) as WebhookEvent;
    await out.render(delivery(parsed, Buffer.from(body)));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('12345678901234567890'); // the sender's digits, not a rounded double
    expect(writes[0]).toMatch(/^\{ "id" : .*"b": 2\} ,"verified":true,"outcome":"verified"\}\n$/);
    expect(JSON.parse(writes[0]!)).toEqual(eventRecord(parsed, true));
  });

  for (const [what, body] of [
    [
      'keys in another order',
      (e: WebhookEvent) => JSON.stringify({ type: e.type, id: e.id, timestamp: e.timestamp, data: e.data }),
    ],
    ['a field besides the envelope', (e: WebhookEvent) => JSON.stringify({ ...e, extra: true })],
    ['a line break between tokens', (e: WebhookEvent) => JSON.stringify(e, null, 2)],
    ['spacing after the closing brace', (e: WebhookEvent) => `${JSON.stringify(e)} `],
  ] as const) {
    it(`--json: a body with ${what} is printed as the record, serialised (one line, envelope fields only)`, async () => {
      const { out, writes } = listenOutput(true);
      const event = envelope();
      const text = body(event);
      await out.render(delivery(JSON.parse(text) as WebhookEvent, Buffer.from(text)));
      expect(writes).toEqual([`${JSON.stringify(eventRecord(event, true))}\n`]);
    });
  }

  it('--json --jq: the filter gets the record as a value', async () => {
    const { out, writes } = listenOutput(true, false, '{id, outcome}');
    const event = envelope();
    await out.render(delivery(event));
    expect(writes.join('')).toBe(`${JSON.stringify({ id: event.id, outcome: 'verified' })}\n`);
  });
});
