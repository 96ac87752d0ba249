/**
 * Emulator-only endpoints over the event log (kernel/event-log.ts). The service's API description
 * has no event list or resend operation, so these are not part of the service: they live at the
 * root, outside the version segment, with HTTP Basic, like /_emulator/clock.
 *   GET  /_emulator/webhooks/events?ids=…&types=…&since=…   → {data: [event summary with its data…], limit}
 *   POST /_emulator/webhooks/replay {ids?, types?, since?, to?} → {endpoint, data: [outcome…]}
 * A replay sends each selected event again, oldest first and one after the other (a consumer sees
 * them in order), with its original bytes: the same envelope id, so a consumer that dedupes by id
 * answers 409 to one it has processed, which counts as delivered (`duplicate`).
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { LoggedEvent } from '../../kernel/event-log.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { isHttpUrl } from '../platform/webhook-config.js';
import { readSelection, requireKnownIds } from './selection.js';

/** `data` is the envelope's resource, so a reader can tell which events concern its own resources (svc trigger --events). */
function summary(e: LoggedEvent): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    timestamp: e.timestamp,
    delivery: e.delivery,
    attempts: e.attempts,
    data: (JSON.parse(e.body) as { data?: unknown }).data,
  };
}

/** Query parameters as the body fields they stand for: lists comma-separated or repeated. */
function queryAsBody(query: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of ['ids', 'types']) {
    const values = query
      .getAll(name)
      .flatMap((v) => v.split(','))
      .filter((v) => v !== '');
    if (values.length > 0) body[name] = values;
  }
  const since = query.get('since');
  if (since !== null) body.since = since;
  return body;
}

/**
 * How long (real time: it is spent waiting on the network) a replay waits for first attempts before
 * it answers: well inside a client's 30 s timeout even when the last attempt waited out its own.
 */
const REPLAY_WAIT_MS = 15_000;

/**
 * First attempts one by one, in order, until one fails or the wait is spent; the rest are queued
 * (`queued`: the outbox delivers them in the background with its usual backoff), so a dead or slow
 * endpoint cannot hold the answer for one timeout per event.
 */
async function replay(emu: EmulatorContext, events: LoggedEvent[], to: string | undefined) {
  const data = [];
  const waitUntil = Date.now() + REPLAY_WAIT_MS;
  let waiting = true;
  for (const event of events) {
    const base = { id: event.id, type: event.type, timestamp: event.timestamp };
    if (!waiting || Date.now() >= waitUntil) {
      emu.outbox.requeue(event, to);
      data.push({ ...base, outcome: 'queued' });
      continue;
    }
    const result = await emu.outbox.redeliver(event, to);
    waiting = result.ok;
    const outcome = result.ok ? (result.status === 409 ? 'duplicate' : 'delivered') : 'retrying';
    data.push({
      ...base,
      outcome,
      ...(result.status !== undefined ? { responseStatus: result.status } : { error: result.error }),
    });
  }
  return data;
}

export const eventLogRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_emulator/webhooks/events',
    permission: 'none',
    unversioned: true,
    handler(req, emu) {
      const f = new Fields(queryAsBody(req.query));
      const selection = readSelection(f, emu, { requireOne: false });
      f.done();
      return {
        status: 200,
        body: { data: emu.outbox.events.select(selection).map(summary), limit: emu.opts.eventLogLimit },
      };
    },
  },
  {
    method: 'POST',
    path: '/_emulator/webhooks/replay',
    permission: 'none',
    unversioned: true,
    async handler(req, emu) {
      const f = new Fields(req.json());
      const selection = readSelection(f, emu, { requireOne: true });
      const to = f.string('to', {
        format: 'url',
        maxLength: 2048,
        check: (v) => (isHttpUrl(v) ? undefined : 'to must be an http or https URL'),
      });
      f.done();
      requireKnownIds(emu, selection.ids);
      const endpoint = to ?? emu.core.config.webhookEndpoint;
      if (!endpoint) {
        throw badRequest(
          'WEBHOOK_ENDPOINT_NOT_SET',
          'No webhook endpoint is configured: set one with PATCH /config {"webhookEndpoint": "<url>"}, or pass "to"',
        );
      }
      const events = emu.outbox.events.select(selection);
      return { status: 200, body: { endpoint, data: await replay(emu, events, to) } };
    },
  },
];
