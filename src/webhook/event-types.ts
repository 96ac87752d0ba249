/**
 * Event type names checked against the service's types (src/service/webhook-types.ts),
 * case-insensitively, with `FAMILY.*` for a whole family. A name that matches nothing is refused
 * before the listener starts (a typo would otherwise silently filter out everything).
 */
import { UsageError } from '../errors.js';
import { closest } from '../closest.js';
import { WEBHOOK_TYPES, type WebhookType } from '../service/webhook-types.js';

/** The types `value` (comma-separated) names; undefined when absent. Errors name `input`, the value's source. */
export function parseEventTypes(value: string | undefined, input = 'events'): Set<WebhookType> | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (names.length === 0)
    throw new UsageError('needs at least one event type, e.g. CARD.STATE_CHANGE', { input, reason: 'NO_EVENT_TYPE' });
  const chosen = new Set<WebhookType>();
  const unknown: string[] = [];
  for (const name of names) {
    const upper = name.toUpperCase();
    const matches = upper.endsWith('.*')
      ? WEBHOOK_TYPES.filter((t) => t.startsWith(upper.slice(0, -1)))
      : WEBHOOK_TYPES.filter((t) => t === upper);
    if (matches.length === 0) unknown.push(name);
    for (const t of matches) chosen.add(t);
  }
  if (unknown.length > 0) {
    const guesses = unknown.map((name) => suggestion(name)).filter((s): s is string => s !== undefined);
    throw new UsageError(
      `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}`,
      {
        input,
        reason: 'UNKNOWN_EVENT_TYPE',
        hint: `${guesses.length ? `Did you mean ${guesses.join(', ')}? ` : ''}Known types: ${WEBHOOK_TYPES.join(', ')} (case does not matter; FAMILY.* takes a whole family, e.g. CARD.*).`,
      },
    );
  }
  return chosen;
}

/** The known type closest to a mistyped name (the fewest edits, case aside), if any is close. */
export function suggestion(name: string): string | undefined {
  const upper = name.toUpperCase().replace(/[\s-]/g, '_');
  return closest(upper, WEBHOOK_TYPES, Math.max(2, Math.floor(upper.length / 4)));
}
