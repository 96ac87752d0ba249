import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatDuplicate, formatEvent, meaningText } from '../../../commands/webhook/format.js';
import { CardStates, describeEvent } from '../../../src/webhook/render.js';
import type { WebhookEvent } from '../../../src/webhook/envelope.js';

const CARD = 'Card:dccfaf1c-2538-4a61-9af6-4e0f194e1b77';
const DELIVERY = 'Webhook:3834067b-a59f-4aaa-8fdd-1eb94b7a417a';
const ACCOUNT = 'InternalAccount:99ace901-1c54-4e3a-9626-35dcdbd79a8a';
const plain = new Chalk({ level: 0 });
const coloured = new Chalk({ level: 1 });
const event = (type: string, data: Record<string, unknown>): WebhookEvent => ({
  id: DELIVERY,
  type,
  timestamp: '2026-11-21T10:01:40Z',
  data: { id: CARD, ...data },
});
const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('formatEvent on a terminal', () => {
  it('keeps full ids when the width is unknown (a pipe, a log file)', () => {
    const text = formatEvent(
      plain,
      describeEvent(event('CARD.STATE_CHANGE', { state: 'FROZEN' }), new CardStates()),
      undefined,
      undefined,
      0,
    );
    expect(text.split('\n')[0]).toBe(`10:01:40Z  CARD.STATE_CHANGE  ${CARD}  FROZEN  [${DELIVERY}]  verified`);
  });

  it("says what happened to the delivery: verified or not, and the app's answer with the local attempt that got it", () => {
    const parts = describeEvent(event('CARD.STATE_CHANGE', { state: 'FROZEN' }), new CardStates());
    const forward = { url: 'http://127.0.0.1:3000/hook', ok: true, status: 204, ms: 3.25 };
    const text = formatEvent(plain, parts, forward, forward.url, 0, false, false, 3);
    expect(text.split('\n')[0]).toBe(`10:01:40Z  CARD.STATE_CHANGE  ${CARD}  FROZEN  [${DELIVERY}]  UNVERIFIED`);
    expect(text.split('\n')[2]).toBe('  ↪ forwarded to http://127.0.0.1:3000/hook: 204 in 3.3 ms on local attempt 3');
  });

  it('says on the event line that a delivery a crash interrupted may have been shown before', () => {
    const text = formatEvent(
      plain,
      describeEvent(event('CARD.STATE_CHANGE', { state: 'FROZEN' }), new CardStates()),
      undefined,
      undefined,
      0,
      true,
    );
    expect(text.split('\n')[0]).toBe(
      `10:01:40Z  CARD.STATE_CHANGE  ${CARD}  FROZEN  [${DELIVERY}]  verified  (redelivered after a crash: may have been shown before)`,
    );
  });

  it('never shortens ids on a 100-column terminal: what does not fit goes on an indented line', () => {
    const states = new CardStates(0);
    const active = formatEvent(
      plain,
      describeEvent(event('CARD.STATE_CHANGE', { state: 'ACTIVE', createdAt: '2026-11-21T10:01:39Z' }), states),
      undefined,
      undefined,
      100,
    );
    expect(active).toBe(
      `10:01:40Z  CARD.STATE_CHANGE  ${CARD}  ACTIVE\n  [${DELIVERY}]  verified\n  → card is live: svc cards reveal ${CARD}`,
    );
    const funding = formatEvent(
      plain,
      describeEvent(event('CARD.FUNDING_SOURCE_CHANGE', { state: 'ACTIVE', fundingSources: [ACCOUNT] }), states),
      undefined,
      undefined,
      100,
    );
    expect(funding.split('\n').slice(0, 2)).toEqual([
      `10:01:40Z  CARD.FUNDING_SOURCE_CHANGE  ${CARD}  1 funding source`,
      `  [${DELIVERY}]  verified`,
    ]);
    expect(funding).toContain(`→ replace stored bindings with: ${ACCOUNT}`);
    expect(widest(active)).toBeLessThanOrEqual(100);
    expect(widest(funding)).toBeLessThanOrEqual(100);
    expect(active).not.toContain('…');
  });

  it('a duplicate line fits as well, with the whole id', () => {
    expect(formatDuplicate(plain, event('CARD.STATE_CHANGE', {}), 0)).toContain(DELIVERY);
    const narrow = formatDuplicate(plain, event('CARD.STATE_CHANGE', {}), 100);
    expect(narrow).toBe(
      `duplicate  CARD.STATE_CHANGE\n  [${DELIVERY}] already processed; answered 200, not shown again`,
    );
  });

  it('a meaning without a colour of its own carries no escape codes', () => {
    const text = formatEvent(
      coloured,
      describeEvent(event('CARD.STATE_CHANGE', { state: 'FROZEN' }), new CardStates()),
      undefined,
      undefined,
      0,
    );
    expect(text.split('\n')[1]).toBe('  → card frozen');
  });

  it("spells the core's next step as the command that takes it, before a late note", () => {
    const parts = { meaning: 'card is live', next: { action: 'reveal-card', cardId: CARD } as const };
    expect(meaningText(parts)).toBe(`card is live: svc cards reveal ${CARD}`);
    expect(meaningText({ ...parts, late: '(delivered late: the card has been FROZEN since 12:00:05Z)' })).toBe(
      `card is live: svc cards reveal ${CARD} (delivered late: the card has been FROZEN since 12:00:05Z)`,
    );
  });
});
