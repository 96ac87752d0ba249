/**
 * The failed-forward queue against a dead app, on the test's clock: one attempt per wait however
 * many deliveries wait, waits doubling with jitter up to the cap, and a drain once the app is back.
 * And the per-forward limit of a hanging app, fired by the test's clock, not by waiting.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ForwardQueue } from '../../../src/webhook/forward-queue.js';
import { createForwarder } from '../../../src/webhook/forward.js';

function clock() {
  const due: Array<{ run: () => void; ms: number }> = [];
  return {
    due,
    schedule: (run: () => void, ms: number) => due.push({ run, ms }),
    /** Runs the next scheduled try and lets its promise settle. */
    async next() {
      const step = due.shift()!;
      step.run();
      await new Promise((resolve) => setImmediate(resolve));
      return step.ms;
    },
  };
}

describe('ForwardQueue', () => {
  it('tries a dead app once per wait, whatever waits; waits double with jitter up to the cap', async () => {
    const c = clock();
    const tries: string[] = [];
    let appUp = false;
    let draw = 0;
    const queue = new ForwardQueue({
      initialMs: 1000,
      maxMs: 8000,
      schedule: c.schedule,
      random: () => [0, 0.5, 0.999][draw++ % 3]!,
      retry: async (id) => {
        tries.push(id);
        if (!appUp) queue.add(id, 'app', 2); // failed again: back in the queue
        return appUp;
      },
    });
    for (let i = 0; i < 200; i++) queue.add(`Webhook:${i}`, 'app', i === 0 ? 1 : 0);
    expect(c.due).toHaveLength(1); // 200 waiting, one try scheduled
    const waits: number[] = [];
    for (let n = 0; n < 6; n++) waits.push(await c.next());
    expect(tries).toHaveLength(6); // one attempt per wait, not 200
    const caps = [1000, 2000, 4000, 8000, 8000, 8000];
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(caps[i]! / 2);
      expect(ms).toBeLessThanOrEqual(caps[i]!);
    });
    expect(new Set(waits.slice(3)).size).toBeGreaterThan(1); // jitter: not all the same
    appUp = true;
    await c.next(); // the try due after the last wait: the app answers
    // Back: the rest drain one after another without waiting.
    while (c.due.length > 0) expect(await c.next()).toBe(0);
    expect(queue.size).toBe(0);
    expect(new Set(tries).size).toBe(200);
  });

  it('stops starting tries once the listener closes: what waits stays in the journal', async () => {
    const c = clock();
    let stopping = false;
    const tries: string[] = [];
    const queue = new ForwardQueue({
      schedule: c.schedule,
      stopping: () => stopping,
      retry: async (id) => {
        tries.push(id);
        return true;
      },
    });
    queue.add('Webhook:a', 'app', 1);
    stopping = true;
    await c.next();
    expect(tries).toEqual([]);
  });
});

describe('a forward to a hanging app', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('fails with 504 when its own limit fires, without waiting for the app', async () => {
    let arrived!: () => void;
    const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
    let count = 0;
    server = createServer(() => {
      if (++count === 2) arrived(); // takes the request, never answers
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const fire: Array<() => void> = [];
    const forwarder = createForwarder(`127.0.0.1:${(server.address() as AddressInfo).port}/hook`, {
      timeoutMs: 4000,
      timer: (ms, f) => {
        expect(ms).toBe(4000);
        fire.push(f);
        return () => {};
      },
    });
    const first = forwarder.forward(Buffer.from('{}'), {});
    const second = forwarder.forward(Buffer.from('{}'), {});
    await bothArrived; // both requests are at the app, each on its own connection
    fire[0]!(); // 4 s on the forward's clock: only the first one's limit
    const result = await first;
    expect(result).toMatchObject({ ok: false, status: 504 });
    expect(result.error).toContain('no answer within 4000 ms');
    fire[1]!();
    expect((await second).status).toBe(504);
    await forwarder.close();
  });
});
