/**
 * Any delivery that verifies is shown, however deep its body, and one that could
 * not be shown is not acknowledged nor recorded as seen. A signed body nested 6,000 levels deep used
 * to be answered 200 and recorded while printing it overflowed the stack (nothing on stdout; the
 * service's redelivery was then dropped as a duplicate).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../../src/crypto/webhook-signature.js';
import { createDeliveries } from '../../../src/webhook/pipeline.js';
import { deepJson } from '../../../src/webhook/deep-json.js';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { keys, post } from './helpers.js';
import { lines, spawnListener, type SpawnedListener } from './spawn-listener.js';

const DEPTH = 6_000;
let listener: SpawnedListener | undefined;
afterEach(async () => {
  await listener?.stop();
  listener = undefined;
});

function deepBody(id: string): string {
  const data = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
  return `{"id":"${id}","type":"CARD.STATE_CHANGE","timestamp":"2026-01-01T00:00:00.000Z","data":${data}}`;
}

describe('a verified delivery is shown before it is acknowledged', () => {
  it(`--json: a body ${DEPTH} levels deep is printed as one JSON line, then answered 200`, async () => {
    listener = await spawnListener(
      ['--json', 'webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem],
      tempConfigDir(),
    );
    const id = 'Webhook:00000000-0000-4000-8000-000000006000';
    const body = deepBody(id);
    const answer = await post(listener.url, body, { 'x-service-signature': signWebhookBody(body, keys.privateKeyPem) });
    expect(answer.status).toBe(200);
    const [line] = await listener.waitForLines(1);
    expect(line!.length).toBeGreaterThan(DEPTH * 5);
    expect(line!.startsWith(`{"id":"${id}","type":"CARD.STATE_CHANGE"`)).toBe(true);
    expect(line!).toContain(`"data":${'{"a":'.repeat(DEPTH)}1`);
    // A redelivery is the duplicate of something that was shown.
    const again = await post(listener.url, body, { 'x-service-signature': signWebhookBody(body, keys.privateKeyPem) });
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true });
    expect(lines(listener.stdout())).toHaveLength(1);
  });

  it('a delivery whose report throws is answered 500 and not recorded: the retry is shown', async () => {
    const recorded: string[] = [];
    const answers: number[] = [];
    let failNext = true;
    const shown: string[] = [];
    const dedupe = {
      durable: false,
      has: (id: string) => recorded.includes(id),
      begin: () => undefined,
      record: (id: string) => {
        recorded.push(id);
        return undefined;
      },
      release: () => undefined,
      queue: () => undefined,
    };
    const stats = { received: 0, duplicates: 0, filtered: 0, forwardFailed: 0 };
    const deliveries = createDeliveries(
      {
        dedupe,
        verify: () => true,
        onEvent: ({ event }: { event: { id: string } }) => {
          if (failNext) {
            failNext = false;
            throw new RangeError('Maximum call stack size exceeded');
          }
          shown.push(event.id);
        },
      } as never,
      stats as never,
      { begin: () => {}, end: () => {}, stopping: () => false, refuse: () => answers.push(401) },
    );
    const res = () =>
      ({
        writeHead: (status: number) => answers.push(status),
        end: () => {},
      }) as never;
    const event = { id: 'Webhook:1', type: 'CARD.STATE_CHANGE', timestamp: '2026-01-01T00:00:00Z', data: {} };
    const signed = { headers: { 'x-service-signature': 'checked by verify' } } as never;
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    deliveries.receive(signed, res(), Buffer.from(JSON.stringify(event)));
    await settled();
    expect(answers).toEqual([500]);
    expect(recorded).toEqual([]);
    deliveries.receive(signed, res(), Buffer.from(JSON.stringify(event)));
    await settled();
    expect(answers).toEqual([500, 200]);
    expect(shown).toEqual(['Webhook:1']);
    expect(recorded).toEqual(['Webhook:1']);
  });

  it('deepJson writes what JSON.stringify writes', () => {
    const value = JSON.parse('{"a":[1,"two",{"b":null,"c":[true,false,{}]},[]],"d":"\\u00e9\\n","e":-1.5e-7}');
    expect(deepJson(value)).toBe(JSON.stringify(value));
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    expect(deepJson(JSON.parse(deep))).toBe(deep);
  });
});
