/**
 * Turns a webhook event into display parts and says what it means by the spec's consumer rules
 * ("Events", rules 3 and 4, and FUNDING_SOURCE_CHANGE). Pure: no terminal, no colour; the command
 * decides how the parts look.
 */
import type { WebhookEvent } from './envelope.js';
import type { ForwardResult } from './forward.js';
import { eventLine, stringField } from './event-lines.js';
import type { NextStep } from '../next-step.js';

export type Tone = 'live' | 'rejected' | 'closed' | 'bindings' | 'state' | 'generic';

export interface EventParts {
  /** Time of day of the event (UTC), or the raw timestamp if it does not parse. */
  time: string;
  type: string;
  cardId?: string;
  /** State (with stateReason) or funding sources; for other types the resource id if any. */
  detail: string;
  /** A shorter detail for a narrow terminal, when the meaning line already spells the detail out. */
  briefDetail?: string;
  deliveryId: string;
  /** What the consumer should do or know; empty for event types without a rule. */
  meaning: string;
  /** What can be done now (reveal a card that went live): said after the meaning. */
  next?: NextStep;
  /** A state change delivered after a newer one: `(delivered late: …)`, said last. */
  late?: string;
  tone: Tone;
}

/**
 * The states seen per card in this session, each at its event's own timestamp: "ACTIVE after
 * PROCESSING" is only knowable from an earlier event. Deliveries can arrive out of order (a failed
 * one is retried after later ones went through), so "earlier" is by the event's timestamp, not by
 * arrival: a retried ACTIVE that arrives after a FROZEN still reads as the card going live. Bounded
 * (cards, and states per card) so a long session cannot grow it without limit.
 *
 * No event announces PROCESSING (a card is created in it; the spec's transitions all start later),
 * so a card's first event carries no previous state. But a card created after the session started
 * had all of its changes delivered to this session, and it started in PROCESSING: for it, an unseen
 * card's previous state is PROCESSING. Cards older than the session stay unknown.
 */
export class CardStates {
  /** Per card, its states oldest first (by event time; equal times in arrival order). */
  private readonly states = new Map<string, CardState[]>();
  constructor(
    readonly sessionStartMs: number = Date.now(),
    private readonly capacity = 10_000,
    private readonly perCard = 16,
  ) {}

  /** The card's state before an event at `atMs` (default: after everything seen), if seen or inferable. */
  previous(cardId: string, createdAt?: unknown, atMs = Infinity): string | undefined {
    const before = this.states.get(cardId)?.findLast((s) => s.atMs <= atMs);
    if (before !== undefined) return before.state;
    const created = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
    return created >= this.sessionStartMs ? 'PROCESSING' : undefined;
  }

  /** The newest state seen, by event time. */
  latest(cardId: string): CardState | undefined {
    return this.states.get(cardId)?.at(-1);
  }

  /** Records the card's state as of `atMs` (default: before anything seen, as a card's creation is). */
  remember(cardId: string, state: string, atMs = -Infinity): void {
    const list = this.states.get(cardId) ?? [];
    this.states.delete(cardId); // re-inserted last: the least recently changed card goes first
    let i = list.length;
    while (i > 0 && list[i - 1]!.atMs > atMs) i--;
    list.splice(i, 0, { state, atMs });
    if (list.length > this.perCard) list.shift();
    this.states.set(cardId, list);
    if (this.states.size > this.capacity) this.states.delete(this.states.keys().next().value as string);
  }
}

export interface CardState {
  state: string;
  /** The event's timestamp, in ms. */
  atMs: number;
}

export const STATE_CHANGE = 'CARD.STATE_CHANGE';
export const FUNDING_SOURCE_CHANGE = 'CARD.FUNDING_SOURCE_CHANGE';

/** Describes the event and then records the card's new state in `cards`. */
export function describeEvent(event: WebhookEvent, cards: CardStates): EventParts {
  const data = event.data;
  const cardId = stringField(data, 'id');
  const state = stringField(data, 'state');
  const base = { time: timeOfDay(event.timestamp), type: event.type, deliveryId: event.id };
  // An envelope's timestamp parses (envelope.ts); a caller's own event without one sorts as the newest.
  const parsed = Date.parse(event.timestamp);
  const atMs = Number.isNaN(parsed) ? Infinity : parsed;
  const isCard = event.type.startsWith('CARD.') && cardId !== undefined;
  if (!isCard) {
    // An invitation has no id: its code is what the next command takes.
    const id = cardId ?? stringField(data, 'code');
    const detail = eventLine(event.type, data) ?? id ?? '';
    return { ...base, ...(id ? { cardId: id } : {}), detail, meaning: '', tone: 'generic' };
  }

  let parts: EventParts;
  if (event.type === FUNDING_SOURCE_CHANGE) {
    const sources = fundingSources(data);
    const list = sources.length > 0 ? sources.join(', ') : '(none)';
    const brief = `${sources.length} funding source${sources.length === 1 ? '' : 's'}`;
    parts = {
      ...base,
      cardId,
      detail: `fundingSources ${list}`,
      briefDetail: brief,
      meaning: `replace stored bindings with: ${list}`,
      tone: 'bindings',
    };
  } else if (event.type === STATE_CHANGE && state !== undefined) {
    const reason = stringField(data, 'stateReason');
    const detail = reason ? `${state} (${reason})` : state;
    const previous = cards.previous(cardId, data.createdAt, atMs);
    const late = lateNote(cards.latest(cardId), atMs);
    parts = { ...base, cardId, detail, ...stateMeaning(cardId, state, reason, previous), ...(late && { late }) };
  } else {
    parts = { ...base, cardId, detail: state ?? '', meaning: '', tone: 'generic' };
  }
  if (state !== undefined) cards.remember(cardId, state, atMs);
  return parts;
}

/**
 * A state change older than one already shown (a retried delivery overtaken by later ones): a
 * consumer must not let it overwrite the newer state.
 */
function lateNote(newest: CardState | undefined, atMs: number): string | undefined {
  if (newest === undefined || newest.atMs <= atMs) return undefined;
  return `(delivered late: the card has been ${newest.state} since ${timeOfDay(new Date(newest.atMs).toISOString())})`;
}

function stateMeaning(
  cardId: string,
  state: string,
  reason: string | undefined,
  previous: string | undefined,
): Pick<EventParts, 'meaning' | 'tone' | 'next'> {
  switch (state) {
    case 'ACTIVE':
      if (previous === 'PROCESSING')
        return { meaning: 'card is live', tone: 'live', next: { action: 'reveal-card', cardId } };
      if (previous === 'FROZEN') return { meaning: 'card unfrozen; it is active again', tone: 'state' };
      return { meaning: 'card is active', tone: 'state' };
    case 'CLOSED':
      if (reason === 'ISSUER_REJECTED')
        return { meaning: 'provisioning rejected; a new card may be issued', tone: 'rejected' };
      if (reason === 'CLOSED_BY_PLATFORM') return { meaning: 'close confirmed; stop showing the card', tone: 'closed' };
      return { meaning: 'card closed', tone: 'closed' };
    case 'FROZEN':
      return { meaning: 'card frozen', tone: 'state' };
    case 'PROCESSING':
      return { meaning: 'card is being provisioned', tone: 'state' };
    default:
      return { meaning: `card state is now ${state}`, tone: 'state' };
  }
}

/**
 * The JSON line: the envelope as received, plus what happened to it: whether its signature was
 * checked, `outcome` (forwarded, else verified or unverified), the app's answer (`forward`) and, after
 * failed local attempts (journal only), the `attempt` that succeeded; `redelivered: true` when a crash
 * interrupted it and it may have been printed before (journal only).
 */
export function eventRecord(
  event: WebhookEvent,
  verified: boolean,
  redelivered = false,
  forward?: ForwardResult,
  attempt?: number,
): EventRecord {
  return {
    id: event.id,
    type: event.type,
    timestamp: event.timestamp,
    data: event.data,
    ...outcomeFields(verified, redelivered, forward, attempt),
  };
}

/** What eventRecord adds to the envelope, in the order it is printed. */
function outcomeFields(
  verified: boolean,
  redelivered: boolean,
  forward: ForwardResult | undefined,
  attempt: number | undefined,
): Omit<EventRecord, keyof WebhookEvent> {
  const fields: Omit<EventRecord, keyof WebhookEvent> = {
    verified,
    outcome: forward ? 'forwarded' : verified ? 'verified' : 'unverified',
  };
  if (forward?.url) fields.forward = { url: forward.url, status: forward.status, ms: Math.round(forward.ms * 10) / 10 };
  if (attempt !== undefined && attempt > 1) fields.attempt = attempt;
  if (redelivered) fields.redelivered = true;
  return fields;
}

const ENVELOPE_KEYS = ['id', 'type', 'timestamp', 'data'] as const;

/** The outcome fields as they close a line (their JSON without its opening brace). */
const outcomeTail = (...outcome: Parameters<typeof outcomeFields>) =>
  JSON.stringify(outcomeFields(...outcome)).slice(1);
/** The tails of the deliveries that were not forwarded, the usual line: built once, by [verified][redelivered]. */
const UNFORWARDED_TAILS = [false, true].map((verified) =>
  [false, true].map((redelivered) => outcomeTail(verified, redelivered, undefined, undefined)),
);

/**
 * eventRecord's JSON line, made from the body as received rather than by serialising the parsed
 * envelope again: the body without its closing brace, then the outcome fields. Undefined unless the
 * body is the envelope exactly as the service writes it (its four keys in eventRecord's order, one
 * line, closed by its last byte); the caller then stringifies eventRecord. Same value as
 * JSON.stringify(eventRecord(...)) (key for key; the text keeps the sender's spelling of numbers,
 * escapes and spacing), at a tenth of its cost, and for a body of any depth.
 */
export function eventRecordLine(
  body: Buffer,
  event: WebhookEvent,
  verified: boolean,
  redelivered = false,
  forward?: ForwardResult,
  attempt?: number,
): string | undefined {
  const last = body.length - 1;
  // A line break can only be spacing between tokens (JSON strings escape theirs): it would split the line.
  if (body[0] !== 0x7b || body[last] !== 0x7d || body.includes(0x0a) || body.includes(0x0d)) return undefined;
  const keys = Object.keys(event);
  if (keys.length !== ENVELOPE_KEYS.length || ENVELOPE_KEYS.some((key, i) => keys[i] !== key)) return undefined;
  // A first attempt is not said (outcomeFields): such a line has one of the four usual tails.
  const tail =
    forward === undefined && (attempt === undefined || attempt < 2)
      ? UNFORWARDED_TAILS[verified ? 1 : 0]![redelivered ? 1 : 0]!
      : outcomeTail(verified, redelivered, forward, attempt);
  return `${body.toString('utf8', 0, last)},${tail}`;
}

export interface EventRecord {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  verified: boolean;
  outcome: 'forwarded' | 'verified' | 'unverified';
  /** The app's answer: 2xx, or 409 when it already had the event. */
  forward?: { url: string; status: number; ms: number };
  attempt?: number;
  redelivered?: true;
}

function timeOfDay(timestamp: string): string {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString().slice(11, 19) + 'Z';
}

function fundingSources(data: Record<string, unknown>): string[] {
  const value = data.fundingSources;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
