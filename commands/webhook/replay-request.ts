/**
 * What `svc webhook replay` asks the emulator for, from its arguments and flags, checked before any
 * request: every bad one is reported at once (one UsageError whose field lists them), so nothing is
 * sent on bad input. The emulator checks the same rules (shared: idPattern, WEBHOOK_TYPES, since.ts).
 */
import { UsageError } from '../../src/errors.js';
import { idPattern, WEBHOOK_TYPES } from '../../src/service/index.js';
import { parseEventTypes, suggestion } from '../../src/webhook/event-types.js';
import { forwardTarget } from '../../src/webhook/forward.js';
import type { ReplayRequest } from '../../src/webhook-replay/replay.js';
import { SINCE_FORMS, sinceProblem } from '../../src/webhook-replay/since.js';

export interface ReplayInput {
  ids: readonly string[];
  since?: string | undefined;
  /** Comma-separated event types. */
  type?: string | undefined;
  to?: string | undefined;
}

type Problem = { field: string; message: string };

function checkIds(ids: readonly string[], problems: Problem[]): string[] | undefined {
  const bad = ids.filter((id) => !idPattern('Webhook').test(id));
  if (bad.length > 0)
    problems.push({
      field: '<Webhook:id>',
      message: `event ids look like Webhook:<uuid>; got ${bad.map((b) => `"${b}"`).join(', ')}`,
    });
  return ids.length > 0 ? [...new Set(ids)] : undefined;
}

/**
 * Event types as `webhook listen --events` reads them (src/webhook/event-types.ts): any case,
 * FAMILY.* for a family, a typo answered with the nearest known type.
 */
function checkTypes(value: string | undefined, problems: Problem[]): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (names.length === 0) {
    problems.push({ field: '--type', message: '--type needs at least one event type, e.g. --type CARD.STATE_CHANGE' });
    return undefined;
  }
  const types = new Set<string>();
  for (const name of names) {
    const selected = typesNamed(name);
    for (const type of selected ?? []) types.add(type);
    if (selected !== undefined) continue;
    const near = suggestion(name);
    const family = WEBHOOK_TYPES.filter((known) => known.split('.')[0] === name.split('.')[0]!.toUpperCase());
    const known = near ? `did you mean ${near}?` : `known: ${(family.length > 0 ? family : WEBHOOK_TYPES).join(', ')}`;
    problems.push({ field: '--type', message: `--type: unknown event type "${name}"; ${known}` });
  }
  return [...types];
}

/** The types one name (or FAMILY.*) selects, or undefined when it names none. */
function typesNamed(name: string): ReadonlySet<string> | undefined {
  try {
    return parseEventTypes(name, 'type');
  } catch {
    return undefined;
  }
}

/** Where --to delivers, read as `webhook listen --forward-to` reads it: a URL, or host:port/path. */
function checkUrl(value: string | undefined, problems: Problem[]): string | undefined {
  if (value === undefined) return undefined;
  const target = forwardTarget(value);
  if (target === undefined)
    problems.push({
      field: '--to',
      message: `--to must be an http or https URL or host:port/path, e.g. --to localhost:4242/webhooks; got "${value}"`,
    });
  return target?.href ?? value;
}

/** The replay body for these arguments and flags; throws UsageError naming each bad one. */
export function replayRequest(input: ReplayInput): ReplayRequest {
  const problems: Problem[] = [];
  const ids = checkIds(input.ids, problems);
  const types = checkTypes(input.type, problems);
  if (input.since !== undefined && sinceProblem(input.since) !== undefined) {
    problems.push({ field: '--since', message: `--since must be ${SINCE_FORMS}; got "${input.since}"` });
  }
  const to = checkUrl(input.to, problems);
  if (ids === undefined && input.type === undefined && input.since === undefined) {
    problems.push({
      field: '<Webhook:id>',
      message:
        'say which events to replay: name them (Webhook:<uuid> …), or pass --since and/or --type (e.g. --since 1h)',
    });
  }
  if (problems.length === 1) throw new UsageError(problems[0]!.message, { input: problems[0]!.field });
  if (problems.length > 1) {
    const fields = [...new Set(problems.map((p) => p.field))].join(', ');
    throw new UsageError(
      `${problems.length} arguments need fixing:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
      { input: fields },
    );
  }
  return {
    ...(ids && { ids }),
    ...(types && { types }),
    ...(input.since !== undefined && { since: input.since }),
    ...(to !== undefined && { to }),
  };
}
