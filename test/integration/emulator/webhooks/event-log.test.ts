/**
 * The emulator's event log and its replay endpoint, over HTTP: events raised while no webhook
 * endpoint is set are kept (undelivered) and a replay delivers them to a 127.0.0.1 receiver with
 * their original id and bytes and a valid signature; selection by ids, types and since; `to`;
 * 409 counted as delivered; a failed first attempt retried on the clock; the bound; --state.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
  errorShape,
  eventually,
  nodeVerifyWebhook,
  STILL,
  testEmulator,
  usePerTestEmulators,
  type TestEmulator,
} from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const { emulator, receiver } = usePerTestEmulators(STILL);

/** A call at the root (outside the version segment), where the emulator-only endpoints live. */
async function root(t: TestEmulator, method: string, path: string, body?: unknown) {
  const res = await request(`${new URL(t.emu.baseUrl).origin}${path}`, {
    method: method as 'GET',
    headers: { authorization: basicAuth(t.emu), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined, text, headers: res.headers };
}

const replay = (t: TestEmulator, body: unknown) => root(t, 'POST', '/_emulator/webhooks/replay', body);
const logged = async (t: TestEmulator, query = '') =>
  (await root(t, 'GET', `/_emulator/webhooks/events${query}`)).body.data as any[];

/** Freezing and unfreezing the fixture card each raise one CARD.STATE_CHANGE. */
const setCard = (t: TestEmulator, state: 'FROZEN' | 'ACTIVE') =>
  t.call('PATCH', `/cards/${t.emu.fixtures.cardId}`, { body: { state } });

/** A customer named with the 001 suffix raises one CUSTOMER.KYC_PENDING. */
async function customerEvent(t: TestEmulator): Promise<void> {
  const c = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL' } });
  await t.call('PATCH', `/customers/${c.body.id}`, { body: { customerType: 'INDIVIDUAL', fullName: 'Late Name001' } });
}

describe('events raised with no endpoint', () => {
  it('are kept, undelivered, and a replay delivers each once with its original id, bytes and a valid signature', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    await setCard(t, 'ACTIVE');
    const kept = await logged(t);
    expect(kept.map((e) => [e.type, e.delivery, e.attempts])).toEqual([
      ['CARD.STATE_CHANGE', 'undelivered', 0],
      ['CARD.STATE_CHANGE', 'undelivered', 0],
    ]);

    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    expect(t.emu.testing.pendingWebhooks()).toBe(0); // setting an endpoint does not flush the log by itself

    const answer = await replay(t, { since: '1h' });
    expect(answer.status).toBe(200);
    expect(answer.body.endpoint).toBe(hooks.url);
    expect(answer.body.data.map((d: any) => [d.id, d.outcome, d.responseStatus])).toEqual(
      kept.map((e) => [e.id, 'delivered', 200]),
    );
    expect(hooks.deliveries.map((d) => d.body.id)).toEqual(kept.map((e) => e.id));
    expect(hooks.deliveries.map((d) => d.body.data.state)).toEqual(['FROZEN', 'ACTIVE']);
    for (const d of hooks.deliveries) {
      expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
      expect(d.body.timestamp).toBe(kept.find((e) => e.id === d.body.id).timestamp);
    }
    expect((await logged(t)).map((e) => [e.delivery, e.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('a replay of a delivered event sends the same bytes again; a deduping consumer answers 409, counted as a duplicate', async () => {
    const t = await emulator();
    let seen = new Set<string>();
    const hooks = await receiver((_n, d) => (seen.has(d.body.id) ? 409 : (seen.add(d.body.id), 200)));
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    await setCard(t, 'FROZEN');
    await hooks.waitFor(1);
    await eventually(() => (t.emu.testing.pendingWebhooks() === 0 ? true : undefined));
    const [event] = await logged(t);
    const again = await replay(t, { ids: [event.id] });
    expect(again.body.data).toEqual([
      {
        id: event.id,
        type: 'CARD.STATE_CHANGE',
        timestamp: event.timestamp,
        outcome: 'duplicate',
        responseStatus: 409,
      },
    ]);
    expect(hooks.deliveries).toHaveLength(2);
    expect(hooks.deliveries[1]!.raw.equals(hooks.deliveries[0]!.raw)).toBe(true);
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, hooks.deliveries[1]!)).toBe(true);
    seen = new Set(); // a consumer that forgot it processes it again
    expect((await replay(t, { ids: [event.id] })).body.data[0].outcome).toBe('delivered');
  });
});

describe('selection', () => {
  it('by ids, by types and by since (a span on the emulator clock, or a date-time); all given criteria apply', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    t.emu.testing.advanceClock(2 * 3600_000);
    const middle = t.emu.testing.now();
    await customerEvent(t);
    t.emu.testing.advanceClock(2 * 3600_000);
    await setCard(t, 'ACTIVE');
    const [first, customer, last] = await logged(t);
    expect([first.type, customer.type, last.type]).toEqual([
      'CARD.STATE_CHANGE',
      'CUSTOMER.KYC_PENDING',
      'CARD.STATE_CHANGE',
    ]);

    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    const ids = async (body: unknown) => {
      const answer = await replay(t, body);
      expect(answer.status).toBe(200);
      return answer.body.data.map((d: any) => d.id);
    };
    expect(await ids({ ids: [last.id, first.id] })).toEqual([first.id, last.id]); // oldest first, whatever the order asked
    expect(await ids({ types: ['CUSTOMER.KYC_PENDING'] })).toEqual([customer.id]);
    expect(await ids({ since: '3h' })).toEqual([customer.id, last.id]);
    expect(await ids({ since: new Date(middle).toISOString() })).toEqual([customer.id, last.id]);
    expect(await ids({ since: '3h', types: ['CARD.STATE_CHANGE'] })).toEqual([last.id]);
    expect(await ids({ ids: [first.id], types: ['CUSTOMER.KYC_PENDING'] })).toEqual([]);
    expect(hooks.deliveries.map((d) => d.body.id)).toEqual([
      first.id,
      last.id,
      customer.id,
      customer.id,
      last.id,
      customer.id,
      last.id,
      last.id,
    ]);
    expect(await logged(t, `?types=CUSTOMER.KYC_PENDING&since=3h`)).toHaveLength(1);
  });

  it('to: delivers to that URL only, not to the configured endpoint', async () => {
    const t = await emulator();
    const configured = await receiver();
    const other = await receiver();
    await setCard(t, 'FROZEN');
    await t.call('PATCH', '/config', { body: { webhookEndpoint: configured.url } });
    const answer = await replay(t, { since: '1d', to: other.url });
    expect(answer.body).toMatchObject({
      endpoint: other.url,
      data: [{ type: 'CARD.STATE_CHANGE', outcome: 'delivered' }],
    });
    expect(other.deliveries).toHaveLength(1);
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, other.deliveries[0]!)).toBe(true);
    expect(configured.deliveries).toHaveLength(0);
  });
});

describe('delivery failures', () => {
  it('a failed first attempt answers "retrying", the events after it are "queued" (not waited on); the backoff delivers them, same ids', async () => {
    const t = await emulator({ webhookRetry: { initialMs: 1000, maxMs: 60_000 } });
    let down = true;
    const hooks = await receiver(() => (down ? 503 : 200));
    await setCard(t, 'FROZEN');
    await setCard(t, 'ACTIVE');
    const answer = await replay(t, { since: '1h', to: hooks.url });
    expect(answer.body.data.map((d: any) => [d.outcome, d.responseStatus])).toEqual([
      ['retrying', 503],
      ['queued', undefined],
    ]);
    // The queued one is tried too, in the background; once both have had their attempt, both wait out the backoff.
    await eventually(() =>
      t.emu.testing.webhookQueue().filter((d) => d.attempts === 1).length === 2 ? true : undefined,
    );
    expect(hooks.deliveries).toHaveLength(2);
    down = false;
    t.emu.testing.advanceClock(1000);
    await hooks.waitFor(4);
    await eventually(() => (t.emu.testing.pendingWebhooks() === 0 ? true : undefined));
    const ids = answer.body.data.map((d: any) => d.id);
    expect(new Set(hooks.deliveries.slice(2).map((d) => d.body.id))).toEqual(new Set(ids));
    expect((await logged(t)).map((e) => e.delivery)).toEqual(['delivered', 'delivered']);
  });
});

describe('refusals', () => {
  it('unknown ids: 404 naming each; nothing is sent', async () => {
    const t = await emulator();
    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    await setCard(t, 'FROZEN');
    const [known] = await logged(t);
    const missing = ['Webhook:00000000-0000-4000-8000-000000000001', 'Webhook:00000000-0000-4000-8000-000000000002'];
    await hooks.waitFor(1);
    const answer = await replay(t, { ids: [known.id, ...missing] });
    expect(errorShape(answer)).toMatchObject({ status: 404, code: 'NOT_FOUND', details: { ids: missing } });
    expect(answer.body.message).toContain(missing[0]);
    expect(hooks.deliveries).toHaveLength(1); // only the original delivery
  });

  it('bad fields: 400 INVALID_INPUT listing every one; no selection at all is refused too', async () => {
    const t = await emulator();
    const bad = await replay(t, { ids: ['Card:nope'], types: ['CARD.NOPE'], since: 'yesterday', to: 'ftp://x' });
    expect(errorShape(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(['ids[0]', 'since', 'to', 'types[0]']);
    const none = await replay(t, {});
    expect(errorShape(none)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'ids' }] },
    });
    const badQuery = await root(t, 'GET', '/_emulator/webhooks/events?since=soon');
    expect(errorShape(badQuery).details.errors.map((e: any) => e.field)).toEqual(['since']);
  });

  it('no endpoint configured and no to: 400 WEBHOOK_ENDPOINT_NOT_SET', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    expect(errorShape(await replay(t, { since: '1h' }))).toMatchObject({
      status: 400,
      code: 'WEBHOOK_ENDPOINT_NOT_SET',
    });
    expect((await logged(t))[0].delivery).toBe('undelivered');
  });

  it('is emulator-only: nothing under the version segment, and HTTP Basic is required', async () => {
    const t = await emulator();
    expect(errorShape(await t.call('POST', '/_emulator/webhooks/replay', { body: { since: '1h' } }))).toMatchObject({
      status: 404,
    });
    const res = await request(`${new URL(t.emu.baseUrl).origin}/_emulator/webhooks/replay`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });
});

describe('the bound and --state', () => {
  it('keeps the newest eventLogLimit events; an evicted id is unknown', async () => {
    const t = await emulator({ eventLogLimit: 3 });
    for (const state of ['FROZEN', 'ACTIVE', 'FROZEN', 'ACTIVE', 'FROZEN'] as const) await setCard(t, state);
    const kept = await logged(t);
    expect(kept).toHaveLength(3);
    const all = await root(t, 'GET', '/_emulator/webhooks/events');
    expect(all.body.limit).toBe(3);
    const hooks = await receiver();
    const answer = await replay(t, { since: '1h', to: hooks.url });
    expect(hooks.deliveries.map((d) => d.body.data.state)).toEqual(['FROZEN', 'ACTIVE', 'FROZEN']);
    expect(answer.body.data.map((d: any) => d.id)).toEqual(kept.map((e) => e.id));
  });

  describe('with a state file', () => {
    const dir = tempDir('svc-event-log-');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('undelivered events survive a restart and are replayed with the same id and a valid signature', async () => {
      const statePath = join(dir, 'state.json');
      const first = await testEmulator({ ...STILL, statePath });
      await setCard(first, 'FROZEN');
      const [event] = await logged(first);
      await first.close();

      const second = await emulator({ statePath });
      expect(await logged(second)).toEqual([event]);
      const hooks = await receiver();
      await replay(second, { ids: [event.id], to: hooks.url });
      expect(hooks.deliveries.map((d) => d.body.id)).toEqual([event.id]);
      expect(nodeVerifyWebhook(second.emu.webhookPublicKey, hooks.deliveries[0]!)).toBe(true);
    });
  });
});
