/**
 * Webhook delivery: at least once with backoff on 5xx, timeouts and refused connections; stop on
 * 2xx or 409; give up after maxAttempts; duplicates on demand; the synchronous TEST event.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  basicAuth,
  delivered,
  errorShape,
  eventually,
  nodeVerifyWebhook,
  STILL,
  usePerTestEmulators,
  type Receiver,
  type TestEmulator,
  type webhookReceiver,
} from '../support.js';
import type { EmulatorOptions } from '../../../../src/emulator/index.js';

const { emulator, receiver } = usePerTestEmulators();

/** An emulator whose webhook endpoint is a receiver answering `answer`, both closed after the test. */
async function setup(
  answer: Parameters<typeof webhookReceiver>[0],
  options: EmulatorOptions = {},
): Promise<{ t: TestEmulator; hooks: Receiver }> {
  const t = await emulator(options);
  const hooks = await receiver(answer);
  await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
  return { t, hooks };
}

/** Freezing the fixture card is a cheap way to raise one CARD.STATE_CHANGE. */
const freeze = (t: TestEmulator) => t.call('PATCH', `/cards/${t.emu.fixtures.cardId}`, { body: { state: 'FROZEN' } });

/** n deliveries arrive and the queue empties: nothing is left that could arrive later. */
async function expectExactly(t: TestEmulator, hooks: Receiver, n: number): Promise<void> {
  await hooks.waitFor(n);
  await delivered(t);
  expect(hooks.deliveries).toHaveLength(n);
}

/**
 * Waits until the queued event has had `attempts` attempts, then jumps the clock to its next one;
 * returns how far that was (the backoff the emulator chose).
 */
async function jumpToRetry(t: TestEmulator, attempts: number): Promise<number> {
  const queued = await eventually(() => t.emu.testing.webhookQueue().find((d) => d.attempts === attempts));
  const wait = queued.nextAttemptAtMs - t.emu.testing.now();
  t.emu.testing.advanceClock(wait);
  return wait;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('delivery and retries', () => {
  it('retries after 500s with the same signed bytes, then stops on 200', async () => {
    const { t, hooks } = await setup((n) => (n < 2 ? 500 : 200), {
      ...STILL,
      webhookRetry: { initialMs: 1000, maxMs: 60_000 },
    });
    await freeze(t);
    await jumpToRetry(t, 1);
    await jumpToRetry(t, 2);
    await expectExactly(t, hooks, 3);
    const seen = hooks.deliveries;
    expect(new Set(seen.map((d) => d.body.id)).size).toBe(1);
    expect(new Set(seen.map((d) => d.raw.toString())).size).toBe(1);
    for (const d of seen) expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
  });

  it('the backoff doubles from initialMs up to maxMs, on the emulator clock', async () => {
    const { t, hooks } = await setup((n) => (n < 4 ? 503 : 200), {
      ...STILL,
      webhookRetry: { initialMs: 1000, maxMs: 5000 },
    });
    await freeze(t);
    const gaps = [];
    for (let attempts = 1; attempts <= 4; attempts++) gaps.push(await jumpToRetry(t, attempts));
    await expectExactly(t, hooks, 5);
    // The still clock moves a microsecond per real second: each gap is the backoff, to the millisecond.
    expect(gaps.map((g) => Math.round(g / 10) * 10)).toEqual([1000, 2000, 4000, 5000]);
  });

  it('409 means the consumer has it: no retry', async () => {
    const { t, hooks } = await setup(() => 409);
    await freeze(t);
    await expectExactly(t, hooks, 1);
  });

  it('a timed-out attempt is retried', async () => {
    const { t, hooks } = await setup((n) => (n === 0 ? 'hang' : 200), {
      webhookRetry: { initialMs: 20, timeoutMs: 200 },
    });
    await freeze(t);
    const seen = await hooks.waitFor(2);
    expect(seen[0]!.body.id).toBe(seen[1]!.body.id);
  });

  it('a refused connection is retried, and goes to the endpoint configured at retry time', async () => {
    const { t, hooks } = await setup(() => 200, STILL);
    await t.call('PATCH', '/config', { body: { webhookEndpoint: `http://127.0.0.1:${await freePort()}/gone` } });
    await freeze(t);
    await eventually(() => (t.emu.testing.webhookQueue()[0]?.attempts === 1 ? true : undefined));
    expect(t.emu.testing.pendingWebhooks()).toBe(1);
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    await jumpToRetry(t, 1);
    const [d] = await hooks.waitFor(1);
    expect(d!.body.type).toBe('CARD.STATE_CHANGE');
  });

  it('gives up after maxAttempts', async () => {
    const { t, hooks } = await setup(() => 500, { webhookRetry: { initialMs: 10, maxMs: 10, maxAttempts: 3 } });
    await freeze(t);
    await expectExactly(t, hooks, 3);
  });

  it('duplicateDeliveries sends each event twice with the same id', async () => {
    const { t, hooks } = await setup(() => 200, { duplicateDeliveries: true });
    await freeze(t);
    const seen = await hooks.waitFor(2);
    expect(seen[0]!.body.id).toBe(seen[1]!.body.id);
    await delivered(t);
    expect(hooks.deliveries).toHaveLength(2);
  });

  it('events raised with no endpoint configured are not queued', async () => {
    const t = await emulator();
    await freeze(t);
    expect(t.emu.testing.pendingWebhooks()).toBe(0);
  });
});

describe('config and the TEST webhook', () => {
  it('400 WEBHOOK_ENDPOINT_NOT_SET without an endpoint; 400 for a bad URL', async () => {
    const t = await emulator();
    expect(errorShape(await t.call('POST', '/sandbox/webhooks/test'))).toMatchObject({
      status: 400,
      code: 'WEBHOOK_ENDPOINT_NOT_SET',
    });
    const bad = await t.call('PATCH', '/config', { body: { webhookEndpoint: 'ftp://x' } });
    expect(errorShape(bad).details.errors[0]).toMatchObject({
      field: 'webhookEndpoint',
      constraint: { format: 'url' },
    });
    // The description's webhookEndpoint is a string: unset, it is left out rather than null.
    expect((await t.call('GET', '/config')).body).toEqual({ id: expect.stringMatching(/^PlatformConfig:/) });
  });

  it('PATCH /config takes a URL only (null is 400); the emulator-only DELETE /_emulator/webhook-endpoint unsets it', async () => {
    const t = await emulator();
    expect((await t.call('PATCH', '/config', { body: { webhookEndpoint: 'http://127.0.0.1:9/hooks' } })).status).toBe(
      200,
    );
    const refused = await t.call('PATCH', '/config', { body: { webhookEndpoint: null } });
    expect(errorShape(refused).details.errors[0]).toMatchObject({ field: 'webhookEndpoint' });
    expect((await t.call('GET', '/config')).body.webhookEndpoint).toBe('http://127.0.0.1:9/hooks');
    const unset = await request(`${new URL(t.emu.baseUrl).origin}/_emulator/webhook-endpoint`, {
      method: 'DELETE',
      headers: { authorization: basicAuth(t.emu) },
    });
    expect(unset.statusCode).toBe(204);
    await unset.body.dump();
    expect((await t.call('GET', '/config')).body).not.toHaveProperty('webhookEndpoint');
  });

  it('delivers a signed TEST event synchronously', async () => {
    const { t, hooks } = await setup(() => 200);
    const answer = await t.call('POST', '/sandbox/webhooks/test');
    expect(answer.status).toBe(200);
    // The description's TestWebhookResponse.
    expect(answer.body).toMatchObject({ url: hooks.url, response_status: 200, type: 'TEST' });
    expect(hooks.deliveries).toHaveLength(1);
    expect(hooks.deliveries[0]!.body).toMatchObject({ id: answer.body.id, type: 'TEST' });
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, hooks.deliveries[0]!)).toBe(true);
  });

  it('400 WEBHOOK_DELIVERY_ERROR when the endpoint fails', async () => {
    const { t } = await setup(() => 500);
    const answer = await t.call('POST', '/sandbox/webhooks/test');
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'WEBHOOK_DELIVERY_ERROR',
      details: { responseStatus: 500 },
    });
  });
});
