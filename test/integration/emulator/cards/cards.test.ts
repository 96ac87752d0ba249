/**
 * Cards over real HTTP: every transition of the spec's card table, its webhook (signature checked
 * with node:crypto), funding-source changes, and the one-use reveal link.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  delivered,
  errorShape,
  eventually,
  nodeVerifyWebhook,
  testEmulator,
  useEmulatorWithWebhooks,
  webhookReceiver,
  type Delivery,
} from '../support.js';

const { t, hooks } = useEmulatorWithWebhooks();

/** The deliveries for a card, in arrival order. */
const eventsOf = (cardId: string): Delivery[] => hooks.deliveries.filter((d) => d.body.data?.id === cardId);

async function event(cardId: string, type: string, state?: string): Promise<Delivery> {
  return eventually(() =>
    eventsOf(cardId).find((d) => d.body.type === type && (!state || d.body.data.state === state)),
  );
}

async function customer(fullName: string): Promise<{ id: string; accountId: string }> {
  const c = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName } });
  const accounts = await t.call('GET', `/internal-accounts?customerId=${c.body.id}`);
  return { id: c.body.id, accountId: accounts.body.data[0].id };
}

async function issue(
  fullName = 'Card Holder',
): Promise<{ card: Record<string, any>; holder: { id: string; accountId: string } }> {
  const holder = await customer(fullName);
  const answer = await t.call('POST', '/cards', {
    body: { cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [holder.accountId] },
  });
  expect(answer.status).toBe(201);
  return { card: answer.body, holder };
}

const patch = (id: string, body: object) => t.call('PATCH', `/cards/${id}`, { body });

function checkEnvelope(d: Delivery, type: string): void {
  expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
  expect(d.body).toMatchObject({
    id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/),
    type,
    timestamp: expect.any(String),
    data: expect.any(Object),
  });
  expect(Number.isNaN(Date.parse(d.body.timestamp))).toBe(false);
  expect(d.raw.toString()).not.toContain('/embed/');
  expect(d.body.data).not.toHaveProperty('pan');
}

describe('issuance', () => {
  it('the fixture card is ACTIVE and funded by the fixture account', async () => {
    const card = await t.call('GET', `/cards/${t.emu.fixtures.cardId}`);
    expect(card.body).toMatchObject({
      state: 'ACTIVE',
      cardholderId: t.emu.fixtures.customerId,
      fundingSources: [t.emu.fixtures.accountId],
    });
  });

  it('PROCESSING → ACTIVE by default, with CARD.STATE_CHANGE carrying the post-change card', async () => {
    const { card } = await issue();
    expect(card).toMatchObject({
      state: 'PROCESSING',
      brand: 'VISA',
      form: 'VIRTUAL',
      currency: 'USD',
      last4: expect.stringMatching(/^\d{4}$/),
    });
    const d = await event(card.id, 'CARD.STATE_CHANGE', 'ACTIVE');
    checkEnvelope(d, 'CARD.STATE_CHANGE');
    expect((await t.call('GET', `/cards/${card.id}`)).body).toEqual(d.body.data);
  });

  it('PROCESSING → CLOSED (ISSUER_REJECTED) for a cardholder named …004', async () => {
    const { card } = await issue('Rejected Holder004');
    const d = await event(card.id, 'CARD.STATE_CHANGE', 'CLOSED');
    checkEnvelope(d, 'CARD.STATE_CHANGE');
    expect(d.body.data.stateReason).toBe('ISSUER_REJECTED');
  });

  it('cardIssuance "reject" rejects every new card', async () => {
    const other = await testEmulator({ cardIssuance: 'reject' });
    try {
      const c = await other.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Anyone' } });
      const acct = await other.call('GET', `/internal-accounts?customerId=${c.body.id}`);
      const card = await other.call('POST', '/cards', {
        body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [acct.body.data[0].id] },
      });
      const settled = await eventually(async () => {
        const now = await other.call('GET', `/cards/${card.body.id}`);
        return now.body.state === 'PROCESSING' ? undefined : now.body;
      });
      expect(settled).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
    } finally {
      await other.close();
    }
  });

  it('400 CARDHOLDER_KYC_NOT_APPROVED, 400 unknown cardholder, 400 foreign funding source', async () => {
    const pending = await customer('Pending Person001');
    const refused = await t.call('POST', '/cards', {
      body: { cardholderId: pending.id, form: 'VIRTUAL', fundingSources: [pending.accountId] },
    });
    expect(errorShape(refused)).toMatchObject({ status: 400, code: 'CARDHOLDER_KYC_NOT_APPROVED' });
    const unknown = await t.call('POST', '/cards', {
      body: { cardholderId: `Customer:${randomUUID()}`, form: 'VIRTUAL', fundingSources: [t.emu.fixtures.accountId] },
    });
    expect(errorShape(unknown)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'cardholderId' }] },
    });
    const holder = await customer('Someone Else');
    const foreign = await t.call('POST', '/cards', {
      body: { cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [t.emu.fixtures.accountId] },
    });
    expect(errorShape(foreign)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'fundingSources[0]' }] },
    });
  });
});

describe('Card fields of the public API description', () => {
  it('POST stores platformCardId and maxSpendPerTransaction; every answer and webhook carries the cap', async () => {
    const holder = await customer('Capped Holder');
    const answer = await t.call('POST', '/cards', {
      body: {
        cardholderId: holder.id,
        form: 'VIRTUAL',
        fundingSources: [holder.accountId],
        platformCardId: 'card-ref-7',
        maxSpendPerTransaction: 5000,
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ platformCardId: 'card-ref-7', maxSpendPerTransaction: 5000 });
    const active = await event(answer.body.id, 'CARD.STATE_CHANGE', 'ACTIVE');
    expect(active.body.data).toMatchObject({ platformCardId: 'card-ref-7', maxSpendPerTransaction: 5000 });
    const { card } = await issue();
    expect(card.maxSpendPerTransaction).toBeNull();
    expect((await t.call('GET', `/cards/${card.id}`)).body.maxSpendPerTransaction).toBeNull();
  });

  it('POST needs form; PATCH sets the cap with a number, clears it with null, and names a bad value', async () => {
    const holder = await customer('Formless Holder');
    const formless = await t.call('POST', '/cards', {
      body: { cardholderId: holder.id, fundingSources: [holder.accountId] },
    });
    expect(errorShape(formless)).toMatchObject({ status: 400, details: { errors: [{ field: 'form' }] } });
    const { card } = await issue();
    expect((await patch(card.id, { maxSpendPerTransaction: 2500 })).body.maxSpendPerTransaction).toBe(2500);
    expect((await t.call('GET', `/cards/${card.id}`)).body.maxSpendPerTransaction).toBe(2500);
    expect((await patch(card.id, { maxSpendPerTransaction: null })).body.maxSpendPerTransaction).toBeNull();
    for (const bad of [0, 1.5, '100']) {
      expect(errorShape(await patch(card.id, { maxSpendPerTransaction: bad }))).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { errors: [{ field: 'maxSpendPerTransaction' }] },
      });
    }
    const closing = await patch(card.id, { state: 'CLOSED', maxSpendPerTransaction: 10 });
    expect(errorShape(closing)).toMatchObject({
      status: 400,
      details: { errors: [{ field: 'maxSpendPerTransaction' }] },
    });
  });
});

describe('PATCH /cards/{id} state machine', () => {
  it('ACTIVE → FROZEN → ACTIVE → CLOSED, one CARD.STATE_CHANGE per move', async () => {
    const { card } = await issue();
    await event(card.id, 'CARD.STATE_CHANGE', 'ACTIVE');
    for (const [state, reason] of [
      ['FROZEN', undefined],
      ['ACTIVE', undefined],
      ['FROZEN', undefined],
      ['CLOSED', 'CLOSED_BY_PLATFORM'],
    ] as const) {
      const before = eventsOf(card.id).length;
      const answer = await patch(card.id, { state });
      expect(answer.status).toBe(200);
      expect(answer.body.state).toBe(state);
      expect(answer.body.stateReason).toBe(reason);
      const d = await eventually(() => (eventsOf(card.id).length > before ? eventsOf(card.id).at(-1) : undefined));
      checkEnvelope(d, 'CARD.STATE_CHANGE');
      expect(d.body.data).toEqual(answer.body);
    }
    const afterClose = await patch(card.id, { state: 'ACTIVE' });
    expect(errorShape(afterClose)).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    expect(errorShape(await patch(card.id, { state: 'CLOSED' })).code).toBe('CARD_ALREADY_CLOSED');
    expect(errorShape(await patch(card.id, { fundingSources: [card.fundingSources[0]] })).code).toBe(
      'CARD_NOT_MUTABLE',
    );
    expect(errorShape(await patch(card.id, { maxSpendPerTransaction: 100 })).code).toBe('CARD_NOT_MUTABLE');
  });

  it('closing a PROCESSING card wins over the issuer; ACTIVE/FROZEN from PROCESSING is 409', async () => {
    const other = await testEmulator({ cardIssuanceDelayMs: 60_000 });
    const receiver = await webhookReceiver();
    try {
      await other.call('PATCH', '/config', { body: { webhookEndpoint: receiver.url } });
      const c = await other.call('POST', '/customers', {
        body: { customerType: 'INDIVIDUAL', fullName: 'Slow Issuer' },
      });
      const acct = await other.call('GET', `/internal-accounts?customerId=${c.body.id}`);
      const card = await other.call('POST', '/cards', {
        body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [acct.body.data[0].id] },
      });
      const early = await other.call('PATCH', `/cards/${card.body.id}`, { body: { state: 'FROZEN' } });
      expect(errorShape(early)).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      const closed = await other.call('PATCH', `/cards/${card.body.id}`, { body: { state: 'CLOSED' } });
      expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
      other.emu.testing.advanceClock(60_000); // the issuer's decision falls due
      expect((await other.call('GET', `/cards/${card.body.id}`)).body.state).toBe('CLOSED');
      await delivered(other);
      expect(receiver.deliveries.map((d) => d.body.data.state)).toEqual(['CLOSED']);
    } finally {
      await other.close();
      await receiver.close();
    }
  });

  it('a same-state PATCH changes nothing and emits nothing', async () => {
    const { card } = await issue();
    await event(card.id, 'CARD.STATE_CHANGE', 'ACTIVE');
    const before = eventsOf(card.id).length;
    expect((await patch(card.id, { state: 'ACTIVE' })).status).toBe(200);
    await delivered(t);
    expect(eventsOf(card.id)).toHaveLength(before);
  });

  it('400 for PROCESSING as a target, an empty patch, 404 for an unknown card', async () => {
    const bad = await patch(t.emu.fixtures.cardId, { state: 'PROCESSING' });
    expect(errorShape(bad).details.errors[0]).toMatchObject({
      field: 'state',
      constraint: { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] },
    });
    expect((await patch(t.emu.fixtures.cardId, {})).status).toBe(400);
    expect((await patch(`Card:${randomUUID()}`, { state: 'FROZEN' })).status).toBe(404);
  });
});

describe('fundingSources', () => {
  it('replacing them emits CARD.FUNDING_SOURCE_CHANGE with the full card; an unchanged list emits nothing', async () => {
    const { card, holder } = await issue();
    await event(card.id, 'CARD.STATE_CHANGE', 'ACTIVE');
    const accounts = (await t.call('GET', `/internal-accounts?customerId=${holder.id}`)).body.data.map(
      (a: { id: string }) => a.id,
    );
    expect(accounts).toHaveLength(2);
    const [usd, eur] = accounts as [string, string];

    for (const next of [[usd, eur], [eur, usd], [eur]]) {
      const before = eventsOf(card.id).length;
      const answer = await patch(card.id, { fundingSources: next });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ fundingSources: next, state: 'ACTIVE' });
      const d = await eventually(() => (eventsOf(card.id).length > before ? eventsOf(card.id).at(-1) : undefined));
      checkEnvelope(d, 'CARD.FUNDING_SOURCE_CHANGE');
      expect(d.body.data).toEqual(answer.body);
    }
    const before = eventsOf(card.id).length;
    expect((await patch(card.id, { fundingSources: [eur] })).status).toBe(200);
    await delivered(t);
    expect(eventsOf(card.id)).toHaveLength(before);
  });

  it('refuses ids that are not internal accounts of the cardholder, listing each', async () => {
    const { card, holder } = await issue();
    const stranger = await customer('Unrelated');
    const refused = await patch(card.id, {
      fundingSources: [holder.accountId, stranger.accountId, 'InternalAccount:bad'],
    });
    expect(errorShape(refused).details.errors.map((e: { field: string }) => e.field)).toEqual(['fundingSources[2]']);
    const refused2 = await patch(card.id, { fundingSources: [stranger.accountId, `InternalAccount:${randomUUID()}`] });
    expect(errorShape(refused2).details.errors.map((e: { field: string }) => e.field)).toEqual([
      'fundingSources[0]',
      'fundingSources[1]',
    ]);
    const repeated = await patch(card.id, { fundingSources: [holder.accountId, holder.accountId] });
    expect(errorShape(repeated).details.errors[0].field).toBe('fundingSources[1]');
    expect((await t.call('GET', `/cards/${card.id}`)).body.fundingSources).toEqual([holder.accountId]);
  });
});

describe('POST /cards/{id}/reveal', () => {
  it('returns a one-use panEmbedUrl served by the emulator without credentials', async () => {
    const card = (await t.call('GET', `/cards/${t.emu.fixtures.cardId}`)).body;
    const reveal = await t.call('POST', `/cards/${card.id}/reveal`);
    expect(reveal.status).toBe(200);
    expect(reveal.body.panEmbedUrl.startsWith(new URL(t.emu.baseUrl).origin + '/embed/cards/')).toBe(true);
    expect(Date.parse(reveal.body.expiresAt)).toBeGreaterThan(Date.now());
    const page = await fetch(reveal.body.panEmbedUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html.replace(/\s/g, '')).toContain(card.last4);
    expect((await fetch(reveal.body.panEmbedUrl)).status).toBe(404);
  });

  it('expires, and is refused for closed cards', async () => {
    const other = await testEmulator();
    try {
      const reveal = await other.call('POST', `/cards/${other.emu.fixtures.cardId}/reveal`);
      other.emu.testing.advanceClock(60_000); // the default 60 s lifetime
      expect((await fetch(reveal.body.panEmbedUrl)).status).toBe(404);
      await other.call('PATCH', `/cards/${other.emu.fixtures.cardId}`, { body: { state: 'CLOSED' } });
      expect(errorShape(await other.call('POST', `/cards/${other.emu.fixtures.cardId}/reveal`))).toMatchObject({
        status: 404,
        code: 'REFERENCE_NOT_FOUND',
      });
    } finally {
      await other.close();
    }
  });
});

describe('GET /cards (the description’s filters, newest first unless sortOrder=asc, paged)', () => {
  it('pages with limit and the cursor it returned, counts every match, and filters by holder, account, reference and state', async () => {
    const { card: first, holder } = await issue();
    const reference = `ref-${randomUUID()}`;
    const second = (
      await t.call('POST', '/cards', {
        body: {
          cardholderId: holder.id,
          form: 'VIRTUAL',
          fundingSources: [holder.accountId],
          platformCardId: reference,
        },
      })
    ).body;
    const third = (
      await t.call('POST', '/cards', {
        body: { cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [holder.accountId] },
      })
    ).body;
    const ids = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((c) => c.id);

    const firstPage = await t.call('GET', `/cards?cardholderId=${holder.id}&limit=2`);
    expect(firstPage.status).toBe(200);
    expect(firstPage.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    expect(ids(firstPage)).toEqual([third.id, second.id]);
    const lastPage = await t.call(
      'GET',
      `/cards?cardholderId=${holder.id}&limit=2&cursor=${firstPage.body.nextCursor}`,
    );
    expect(lastPage.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(lastPage.body).not.toHaveProperty('nextCursor');
    expect(ids(lastPage)).toEqual([first.id]);
    expect(ids(await t.call('GET', `/cards?cardholderId=${holder.id}&sortOrder=asc`))).toEqual([
      first.id,
      second.id,
      third.id,
    ]);

    expect(ids(await t.call('GET', `/cards?platformCardId=${reference}`))).toEqual([second.id]);
    expect(ids(await t.call('GET', `/cards?accountId=${holder.accountId}&sortOrder=asc`))).toEqual([
      first.id,
      second.id,
      third.id,
    ]);
    const other = await customer('Other Holder');
    expect((await t.call('GET', `/cards?accountId=${other.accountId}`)).body).toMatchObject({
      data: [],
      totalCount: 0,
    });
    expect((await patch(second.id, { state: 'CLOSED' })).status).toBe(200);
    expect(ids(await t.call('GET', `/cards?cardholderId=${holder.id}&state=CLOSED`))).toEqual([second.id]);
  });

  it('a cursor this server did not return, or an id of another kind: 400 naming the parameter', async () => {
    const answer = await t.call('GET', '/cards?cursor=bm90LWFuLW9mZnNldA');
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
    const wrongKind = await t.call('GET', `/cards?accountId=${t.emu.fixtures.customerId}`);
    expect(errorShape(wrongKind)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(wrongKind.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['accountId']);
  });
});
