import { describe, expect, it } from 'vitest';
import { CardStates, describeEvent, eventRecord } from '../../../src/webhook/render.js';
import { parseEnvelope, type WebhookEvent } from '../../../src/webhook/envelope.js';

const CARD = 'Card:0b6c3e1e-1111-4c1b-9a43-5d1f3c2a8e01';
let seq = 0;
function cardEvent(type: string, data: Record<string, unknown>): WebhookEvent {
  seq++;
  return { id: `Webhook:${seq}`, type, timestamp: '2025-10-13T12:34:56.789Z', data: { id: CARD, ...data } };
}
const stateChange = (state: string, stateReason?: string) =>
  cardEvent('CARD.STATE_CHANGE', stateReason ? { state, stateReason } : { state });

describe('describeEvent', () => {
  it('shows time, type, card, state and delivery id', () => {
    const event = stateChange('FROZEN');
    const parts = describeEvent(event, new CardStates());
    expect(parts).toMatchObject({
      time: '12:34:56Z',
      type: 'CARD.STATE_CHANGE',
      cardId: CARD,
      detail: 'FROZEN',
      deliveryId: event.id,
      meaning: 'card frozen',
    });
  });

  it('ACTIVE after PROCESSING: the card is live, with the reveal command', () => {
    const cards = new CardStates();
    describeEvent(stateChange('PROCESSING'), cards);
    const parts = describeEvent(stateChange('ACTIVE'), cards);
    expect(parts.meaning).toBe('card is live');
    // The step is data: the CLI spells it as its command (test/unit/webhook/format.test.ts).
    expect(parts.next).toEqual({ action: 'reveal-card', cardId: CARD });
    expect(parts.tone).toBe('live');
  });

  it('ACTIVE with no earlier state seen: just active; after FROZEN: unfrozen', () => {
    const cards = new CardStates();
    expect(describeEvent(stateChange('ACTIVE'), cards).meaning).toBe('card is active');
    describeEvent(stateChange('FROZEN'), cards);
    expect(describeEvent(stateChange('ACTIVE'), cards).meaning).toBe('card unfrozen; it is active again');
  });

  it('tracks the state per card, also from funding-source events', () => {
    const cards = new CardStates();
    describeEvent(cardEvent('CARD.FUNDING_SOURCE_CHANGE', { state: 'PROCESSING', fundingSources: [] }), cards);
    expect(describeEvent(stateChange('ACTIVE'), cards).tone).toBe('live');
    const other = { ...stateChange('ACTIVE'), data: { id: 'Card:other', state: 'ACTIVE' } };
    expect(describeEvent(other, cards).meaning).toBe('card is active');
  });

  it('CLOSED with ISSUER_REJECTED or CLOSED_BY_PLATFORM says what to do', () => {
    const cards = new CardStates();
    const rejected = describeEvent(stateChange('CLOSED', 'ISSUER_REJECTED'), cards);
    expect(rejected).toMatchObject({
      detail: 'CLOSED (ISSUER_REJECTED)',
      meaning: 'provisioning rejected; a new card may be issued',
      tone: 'rejected',
    });
    const closed = describeEvent(stateChange('CLOSED', 'CLOSED_BY_PLATFORM'), cards);
    expect(closed).toMatchObject({
      detail: 'CLOSED (CLOSED_BY_PLATFORM)',
      meaning: 'close confirmed; stop showing the card',
    });
    expect(describeEvent(stateChange('CLOSED'), cards).meaning).toBe('card closed');
  });

  it('FUNDING_SOURCE_CHANGE: replace the stored bindings with the new list', () => {
    const a = 'InternalAccount:aaaa';
    const b = 'InternalAccount:bbbb';
    const parts = describeEvent(
      cardEvent('CARD.FUNDING_SOURCE_CHANGE', { state: 'ACTIVE', fundingSources: [a, b] }),
      new CardStates(),
    );
    expect(parts.detail).toBe(`fundingSources ${a}, ${b}`);
    expect(parts.meaning).toBe(`replace stored bindings with: ${a}, ${b}`);
    const none = describeEvent(cardEvent('CARD.FUNDING_SOURCE_CHANGE', { fundingSources: [] }), new CardStates());
    expect(none.meaning).toBe('replace stored bindings with: (none)');
  });

  it('other event types print generically, without a rule', () => {
    const parts = describeEvent(
      { id: 'Webhook:t', type: 'TRANSACTION.UPDATED', timestamp: 'not a time', data: { id: 'Transaction:1' } },
      new CardStates(),
    );
    expect(parts).toMatchObject({
      time: 'not a time',
      type: 'TRANSACTION.UPDATED',
      detail: 'Transaction:1',
      meaning: '',
      tone: 'generic',
    });
  });

  it('a card created after the session started, first seen ACTIVE, came from PROCESSING', () => {
    const start = Date.parse('2025-10-13T12:00:00Z');
    const cards = new CardStates(start);
    const fresh = cardEvent('CARD.STATE_CHANGE', { state: 'ACTIVE', createdAt: '2025-10-13T12:00:01Z' });
    expect(describeEvent(fresh, cards).tone).toBe('live');
    const older = { ...fresh, data: { ...fresh.data, id: 'Card:older', createdAt: '2025-10-13T11:59:59Z' } };
    expect(describeEvent(older, cards).meaning).toBe('card is active');
    const undated = { ...fresh, data: { id: 'Card:undated', state: 'ACTIVE' } };
    expect(describeEvent(undated, cards).meaning).toBe('card is active');
  });

  it('a retried delivery overtaken by later ones is read by its own timestamp, not its arrival', () => {
    const at = (state: string, time: string) => ({ ...stateChange(state), timestamp: `2025-10-13T12:00:0${time}Z` });
    const cards = new CardStates();
    describeEvent(at('PROCESSING', '0'), cards);
    expect(describeEvent(at('FROZEN', '5'), cards).meaning).toBe('card frozen');
    // The ACTIVE of 12:00:02 failed its first delivery and arrives after the FROZEN of 12:00:05.
    const late = describeEvent(at('ACTIVE', '2'), cards);
    expect(late.meaning).toBe('card is live');
    expect(late.late).toBe('(delivered late: the card has been FROZEN since 12:00:05Z)');
    expect(late.tone).toBe('live');
    expect(late.time).toBe('12:00:02Z');
    // The late one does not become the card's state: the unfreeze after the FROZEN still reads as one.
    expect(describeEvent(at('ACTIVE', '7'), cards).meaning).toBe('card unfrozen; it is active again');
  });

  it('the state memory is bounded', () => {
    const cards = new CardStates(0, 2);
    cards.remember('Card:1', 'PROCESSING');
    cards.remember('Card:2', 'PROCESSING');
    cards.remember('Card:3', 'PROCESSING');
    expect(cards.previous('Card:1')).toBeUndefined();
    expect(cards.previous('Card:3')).toBe('PROCESSING');
  });
});

describe('eventRecord', () => {
  it('is the envelope plus verified and the outcome, in the documented key order', () => {
    const event = stateChange('ACTIVE');
    const envelope = { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data };
    expect(JSON.stringify(eventRecord(event, true))).toBe(
      JSON.stringify({ ...envelope, verified: true, outcome: 'verified' }),
    );
    expect(JSON.stringify(eventRecord(event, false))).toBe(
      JSON.stringify({ ...envelope, verified: false, outcome: 'unverified' }),
    );
    const forward = { url: 'http://127.0.0.1:3000/hook', ok: true, status: 204, ms: 1.234 };
    expect(JSON.stringify(eventRecord(event, true, true, forward, 2))).toBe(
      JSON.stringify({
        ...envelope,
        verified: true,
        outcome: 'forwarded',
        forward: { url: forward.url, status: 204, ms: 1.2 },
        attempt: 2,
        redelivered: true,
      }),
    );
  });
});

describe('parseEnvelope', () => {
  const bytes = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
  const good = { id: 'Webhook:1', type: 'CARD.STATE_CHANGE', timestamp: '2025-10-13T00:00:00Z', data: { id: CARD } };

  it('accepts a complete envelope', () => {
    expect(parseEnvelope(bytes(good))).toEqual(good);
  });

  it.each([
    ['not JSON', '{"id":'],
    ['not an object', '[1,2]'],
    ['null', 'null'],
    ['missing id', { ...good, id: undefined }],
    ['empty id', { ...good, id: '' }],
    ['numeric id', { ...good, id: 7 }],
    ['missing type', { ...good, type: undefined }],
    ['bad timestamp', { ...good, timestamp: 'yesterday' }],
    ['numeric timestamp', { ...good, timestamp: 1 }],
    ['missing data', { ...good, data: undefined }],
    ['array data', { ...good, data: [] }],
  ])('rejects %s with a reason', (_name, value) => {
    expect(typeof parseEnvelope(bytes(value))).toBe('string');
  });

  it('rejects bytes that are not UTF-8', () => {
    const body = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(parseEnvelope(body)).toMatch(/UTF-8/);
  });
});

describe('card-transaction events: one line with status, amount and merchant', () => {
  const usd = (amount: number) => ({
    amount,
    currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  });
  const tx = (type: string, data: Record<string, unknown>): WebhookEvent => ({
    id: 'Webhook:ct',
    type,
    timestamp: '2026-05-09T10:00:00Z',
    data: {
      type: 'CARD',
      id: 'CardTransaction:019542f5-b3e7-1d02-0000-000000000100',
      direction: 'DEBIT',
      merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814' },
      authorizedAmount: usd(1250),
      pullSummary: { count: 1, totalAmount: 1250, pendingCount: 0 },
      ...data,
    },
  });

  it.each([
    ['AUTHORIZED', {}, 'AUTHORIZED 12.50 USD at BLUE BOTTLE COFFEE SF'],
    [
      'AUTHORIZED',
      { pullSummary: { count: 1, totalAmount: 1250, pendingCount: 1 } },
      'AUTHORIZED 12.50 USD at BLUE BOTTLE COFFEE SF (pull pending)',
    ],
    ['PARTIALLY_SETTLED', { settledAmount: usd(400) }, 'PARTIALLY_SETTLED 4.00 of 12.50 USD at BLUE BOTTLE COFFEE SF'],
    ['SETTLED', { settledAmount: usd(1500) }, 'SETTLED 15.00 USD at BLUE BOTTLE COFFEE SF'],
    [
      'SETTLED',
      { settledAmount: usd(1250), refundedAmount: usd(250) },
      'SETTLED 12.50 USD at BLUE BOTTLE COFFEE SF (2.50 USD refunded)',
    ],
    [
      'REFUNDED',
      { settledAmount: usd(1250), refundedAmount: usd(1250) },
      'REFUNDED 12.50 USD back from BLUE BOTTLE COFFEE SF',
    ],
    ['EXCEPTION', { settledAmount: usd(4200) }, 'EXCEPTION 42.00 USD at BLUE BOTTLE COFFEE SF'],
    [
      'SETTLED',
      { direction: 'CREDIT', settledAmount: usd(4000) },
      'SETTLED credit 40.00 USD from BLUE BOTTLE COFFEE SF',
    ],
  ])('%s %j', (status, extra, line) => {
    const parts = describeEvent(tx(`CARD_TRANSACTION.${status}`, { status, ...extra }), new CardStates());
    expect(parts).toMatchObject({
      type: `CARD_TRANSACTION.${status}`,
      cardId: 'CardTransaction:019542f5-b3e7-1d02-0000-000000000100',
      detail: line,
      meaning: '',
    });
  });
});
