/**
 * `since` of a replay: a moment as an ISO 8601 date-time with its zone (`2026-11-26T09:00:00Z`), a
 * date (midnight UTC), or a span back from now (`90s`, `15m`, `2h`, `7d`). A span is measured on the
 * emulator's clock, not the caller's: event timestamps come from that clock, and tests move it. So
 * the CLI only checks the shape, and the emulator resolves the value.
 */
import { parseDateTime } from '../date-time.js';

const SPAN_RE = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
// A time of day needs a zone: a bare local time would mean different moments to the CLI and the emulator.
// Looser than RFC 3339 for a person typing it (a date alone, seconds left out); the day and the time
// are then checked by the one date-time rule.
const MOMENT_RE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export const SINCE_FORMS = 'a span like 30m, 2h or 7d, or a date-time like 2026-11-26T09:00:00Z';

/** Why `text` is not a `since` value, or undefined when it is one. */
export function sinceProblem(text: string): string | undefined {
  if (SPAN_RE.test(text)) return undefined;
  if (momentMs(text) !== undefined) return undefined;
  return `expected ${SINCE_FORMS}; got "${text}"`;
}

/** The epoch ms `text` names, a span counted back from `nowMs`; undefined when it is not a `since` value. */
export function resolveSince(text: string, nowMs: number): number | undefined {
  const span = SPAN_RE.exec(text);
  if (span) return nowMs - Number(span[1]) * UNIT_MS[span[2]!]!;
  return momentMs(text);
}

/** Epoch ms of a date (midnight UTC) or a date-time with its zone, seconds optional; undefined otherwise. */
function momentMs(text: string): number | undefined {
  const m = MOMENT_RE.exec(text);
  if (m === null) return undefined;
  const [, day, hourMinute, seconds = ':00', zone] = m;
  return parseDateTime(hourMinute === undefined ? `${day}T00:00:00Z` : `${day}T${hourMinute}${seconds}${zone}`);
}
