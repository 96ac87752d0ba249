/**
 * What `svc webhook replay` asks the emulator for, from its arguments and flags, checked before any
 * request: every bad one is reported at once (one UsageError whose field lists them), so nothing is
 * sent on bad input. The emulator checks the same rules (shared: idPattern, WEBHOOK_TYPES, since.ts).
 */
import { UsageError } from '../../src/errors.js';
import { idPattern, isWebhookType, WEBHOOK_TYPES } from '../../src/service/index.js';
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

/** Types share their family (CARD.…) with the nearest known ones, so a typo's fix is in the message. */
function checkTypes(value: string | undefined, problems: Problem[]): string[] | undefined {
  if (value === undefined) return undefined;
  const types = [
    ...new Set(
      value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
  if (types.length === 0) {
    problems.push({ field: '--type', message: '--type needs at least one event type, e.g. --type CARD.STATE_CHANGE' });
    return undefined;
  }
  for (const type of types.filter((t) => !isWebhookType(t))) {
    const family = WEBHOOK_TYPES.filter((known) => known.split('.')[0] === type.split('.')[0]);
    const known = family.length > 0 ? family : [...new Set(WEBHOOK_TYPES.map((t) => `${t.split('.')[0]}.…`))];
    problems.push({ field: '--type', message: `--type: unknown event type "${type}"; known: ${known.join(', ')}` });
  }
  return types;
}

function checkUrl(value: string | undefined, problems: Problem[]): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({
      field: '--to',
      message: `--to must be an http or https URL, e.g. --to http://127.0.0.1:4242/webhooks; got "${value}"`,
    });
  }
  return value;
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
