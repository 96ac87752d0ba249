// The dashboard's data endpoints without a browser: access, masking, and the delivery log.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, type TestEmulator, testEmulator, webhookReceiver } from '../support.js';

describe('the dashboard data endpoints', () => {
  let t: TestEmulator;
  let hooks: Receiver;
  beforeAll(async () => {
    t = await testEmulator();
    hooks = await webhookReceiver();
  });
  afterAll(async () => {
    await hooks.close();
    await t.close();
  });
  const origin = () => new URL(t.emu.baseUrl).origin;
  const token = () => new URL(t.emu.dashboardUrl).searchParams.get('token')!;
  const data = async (path: string, init: { token?: string; body?: object } = {}) => {
    const res = await request(
      `${origin()}/_dashboard/api/${path}${path.includes('?') ? '&' : '?'}token=${init.token ?? token()}`,
      {
        method: init.body ? 'POST' : 'GET',
        ...(init.body ? { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } } : {}),
      },
    );
    return { status: res.statusCode, text: await res.body.text() };
  };

  it('answers every data endpoint 401 without the token and 403 with a wrong one, saying nothing more', async () => {
    for (const path of ['requests', 'resources', 'webhooks', 'clock', 'events']) {
      const bare = await request(`${origin()}/_dashboard/${path === 'events' ? path : `api/${path}`}`);
      expect(bare.statusCode).toBe(401);
      expect(await bare.body.text()).toBe('Unauthorized\n');
      const wrong = await data(path, { token: token().replace(/./, (c) => (c === 'a' ? 'b' : 'a')) });
      expect(wrong).toEqual({ status: 403, text: 'Forbidden\n' });
    }
  });

  it('shows request headers and bodies with the client secret and token secrets masked', async () => {
    const made = await t.call('POST', '/tokens', { body: { name: 'dash', permissions: ['VIEW'] } });
    const secret = made.body?.clientSecret as string | undefined;
    const list = JSON.parse((await data('requests')).text);
    const entry = list.data.find((r: { path: string }) => r.path === '/2025-10-13/tokens');
    expect(entry.credential).toBe(`Basic ${t.emu.apiTokenId}`);
    const detail = (await data(`requests/${entry.seq}`)).text;
    expect(detail).toContain(t.emu.apiTokenId);
    expect(detail).not.toContain(t.emu.apiClientSecret);
    if (secret) expect(detail).not.toContain(secret);
  });

  it('records the sandbox test webhook in the event log and the delivery log, and resends it signed', async () => {
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    const sent = await t.call('POST', '/sandbox/webhooks/test');
    expect(sent.status).toBe(200);
    const events = await t.call('GET', '/../_emulator/webhooks/events?types=TEST');
    expect(events.body.data.map((e: { id: string }) => e.id)).toEqual([sent.body.id]);
    const deliveries = JSON.parse((await data('webhooks')).text).data;
    expect(deliveries[0]).toMatchObject({
      eventId: sent.body.id,
      type: 'TEST',
      target: hooks.url,
      responseStatus: 200,
      attempts: 1,
    });
    expect(deliveries[0].signature).toBe(hooks.deliveries[0]!.headers['x-service-signature']);
    expect((await data(`webhooks/${sent.body.id}/resend`, { body: {} })).status).toBe(200);
    await hooks.waitFor(2);
    expect(JSON.parse((await data('webhooks')).text).data).toHaveLength(2);
  });

  it('advances the clock by a typed duration; a bad one is a 400 saying what it takes', async () => {
    const before = Date.parse(JSON.parse((await data('clock')).text).now);
    const after = Date.parse(JSON.parse((await data('clock/advance', { body: { by: '7d' } })).text).now);
    expect(after - before).toBeGreaterThanOrEqual(7 * 86_400_000);
    const bad = await data('clock/advance', { body: { by: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('90s, 6m, 2h or 7d');
  });
});
