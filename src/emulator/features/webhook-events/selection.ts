/**
 * Which logged events a request names: `ids` (Webhook ids), `types` (event types) and `since` (see
 * src/webhook-replay/since.ts), all of them applying. Every bad field is reported at once (400
 * INVALID_INPUT); ids the log does not hold are a 404 naming each of them.
 */
import { idPattern, WEBHOOK_TYPES } from '../../../service/index.js';
import { SINCE_FORMS, resolveSince, sinceProblem } from '../../../webhook-replay/since.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import type { EventSelection } from '../../kernel/event-log.js';
import type { Fields } from '../../kernel/fields.js';

/** Reads ids/types/since into `f`'s error list; call `f.done()` after reading the rest of the body. */
export function readSelection(f: Fields, emu: EmulatorContext, opts: { requireOne: boolean }): EventSelection {
  const limit = emu.opts.eventLogLimit;
  const ids = f.stringArray('ids', { pattern: idPattern('Webhook'), minItems: 1, maxItems: limit });
  const types = f.stringArray('types', { enum: WEBHOOK_TYPES, minItems: 1 });
  const since = f.string('since', {
    check: (v) => (sinceProblem(v) === undefined ? undefined : `since must be ${SINCE_FORMS}`),
  });
  if (opts.requireOne && !f.has('ids') && !f.has('types') && !f.has('since')) {
    // Replaying the whole log by accident would flood the endpoint: a selection is asked for.
    f.add('ids', 'name the events to replay with ids, or select them with types and/or since');
  }
  const selection: EventSelection = {};
  if (ids) selection.ids = ids;
  if (types) selection.types = types;
  if (since !== undefined) selection.sinceMs = resolveSince(since, emu.now());
  return selection;
}

/** 404 naming every requested id the log does not hold (never raised, or evicted past the bound). */
export function requireKnownIds(emu: EmulatorContext, ids: readonly string[] | undefined): void {
  const unknown = (ids ?? []).filter((id) => !emu.outbox.events.get(id));
  if (unknown.length === 0) return;
  throw new HttpError(
    404,
    'NOT_FOUND',
    `No event ${unknown.join(', ')} in the emulator's event log (it keeps the newest ${emu.opts.eventLogLimit} events)`,
    {
      details: { ids: unknown },
    },
  );
}
