import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { basicAuth, errorShape, eventually, STILL, testEmulator, type TestEmulator } from '../support.js';
import { randomName } from '../../../helpers/random-data.js';

async function root(
  t: TestEmulator,
  method: string,
  path: string,
  options: { body?: unknown; auth?: string | false } = {},
) {
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers.authorization = options.auth ?? basicAuth(t.emu);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${new URL(t.emu.baseUrl).origin}${path}`, {
    method: method as 'GET',
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.body.text();
  const body = text ? JSON.parse(text) : undefined;
  return { status: res.statusCode, body, text, headers: res.headers };
}

const advance = (t: TestEmulator, ms: unknown) => root(t, 'POST', '/_emulator/clock/advance', { body: { ms } });

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator({ ...STILL, cardIssuanceDelayMs: 1000 });
});
afterAll(() => t.close());

describe('/_emulator/clock', () => {
  it('advance moves now by exactly ms and answers {now, timeScale}', async () => {
    const before = Date.parse((await root(t, 'GET', '/_emulator/clock')).body.now);
    const moved = await advance(t, 90 * 60_000);
    expect(moved.status).toBe(200);
    expect(moved.body.timeScale).toBe(1e-6);
    expect(Date.parse(moved.body.now) - before).toBe(90 * 60_000);
    expect(t.emu.testing.now()).toBe(Date.parse(moved.body.now));
  });

  it('needs HTTP Basic like every other endpoint', async () => {
    for (const auth of [false, 'Basic ' + Buffer.from(`${t.emu.apiTokenId}:wrong`).toString('base64')] as const) {
      const refused = await root(t, 'POST', '/_emulator/clock/advance', { body: { ms: 1 }, auth });
      expect(errorShape(refused)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      expect(refused.headers['www-authenticate']).toMatch(/^Basic/);
    }
  });

  it('is not part of the service: there is no such route under the version segment', async () => {
    const versioned = await t.call('POST', '/_emulator/clock/advance', { body: { ms: 1 } });
    expect(errorShape(versioned)).toMatchObject({ status: 404, details: { route: 'UNKNOWN' } });
  });

  it.each([
    ['negative', -1],
    ['a string', '1000'],
    ['a fraction', 1.5],
    ['more than a year', 367 * 24 * 3600 * 1000],
    ['absent', undefined],
  ])('400 INVALID_INPUT naming ms when it is %s', async (_what, ms) => {
    const before = t.emu.testing.now();
    const refused = await root(t, 'POST', '/_emulator/clock/advance', { body: ms === undefined ? {} : { ms } });
    expect(errorShape(refused)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(refused.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['ms']);
    expect(t.emu.testing.now() - before).toBeLessThan(5);
  });
});

describe('timers fire when the clock jumps', () => {
  async function newCard(): Promise<string> {
    const c = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: randomName('Clock') },
    });
    const acct = await t.call('GET', `/internal-accounts?customerId=${c.body.id}`);
    const card = await t.call('POST', '/cards', {
      body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [acct.body.data[0].id] },
    });
    expect(card.body.state).toBe('PROCESSING');
    return card.body.id;
  }
  const stateOf = async (id: string) => (await t.call('GET', `/cards/${id}`)).body.state;

  it('card issuance: still PROCESSING 1 ms before the delay, ACTIVE at it', async () => {
    const id = await newCard();
    await advance(t, 999);
    expect(await stateOf(id)).toBe('PROCESSING');
    await advance(t, 1);
    expect(await stateOf(id)).toBe('ACTIVE');
  });

  it('one long jump passes every timer on the way', async () => {
    const ids = [await newCard(), await newCard()];
    await advance(t, 24 * 3600 * 1000);
    for (const id of ids) expect(await stateOf(id)).toBe('ACTIVE');
  });

  it('sessions expire on the clock, and the sweeper forgets them a day later', async () => {
    const session = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string; expiresAt: string };
    const refresh = () =>
      t.call('POST', `/auth/sessions/${session.id}/refresh`, {
        body: { clientPublicKey: generateKeyPair().publicKey },
      });
    expect((await refresh()).status).toBe(202);
    await advance(t, Date.parse(session.expiresAt) - t.emu.testing.now());
    expect(errorShape(await refresh())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await advance(t, 24 * 3600 * 1000 + 20_000);
    expect(errorShape(await refresh())).toMatchObject({ status: 404 });
  });

  it('a quote expires on the clock: paying it after 24 h is refused', async () => {
    const quoteId = t.emu.fixtures.quoteId;
    const quote = (await t.call('GET', `/quotes/${quoteId}`)).body;
    await advance(t, Math.max(0, Date.parse(quote.expiresAt) - t.emu.testing.now()));
    const paid = await t.call('POST', '/sandbox/send', { body: { quoteId, currencyCode: 'USD' } });
    expect(errorShape(paid)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(paid.body.message).toMatch(/expired/);
  });
});

describe('--time-scale', () => {
  it('a 10-minute issuance delay passes in well under a second at 10000x', async () => {
    const fast = await testEmulator({ timeScale: 10_000, cardIssuanceDelayMs: 10 * 60_000 });
    try {
      const c = await fast.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Fast Clock' } });
      const acct = await fast.call('GET', `/internal-accounts?customerId=${c.body.id}`);
      const card = await fast.call('POST', '/cards', {
        body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [acct.body.data[0].id] },
      });
      const started = Date.now();
      await eventually(async () =>
        (await fast.call('GET', `/cards/${card.body.id}`)).body.state === 'ACTIVE' ? true : undefined,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await fast.close();
    }
  });
});
