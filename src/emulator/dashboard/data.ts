/**
 * The dashboard's data endpoints, below /_dashboard/api (access.ts guards them all):
 *   GET  requests?after=<seq>          → {data: [request summary…], lastSeq}   newest last
 *   GET  requests/<seq>                → the request's detail (headers and bodies, secrets masked)
 *   GET  resources?q=<text>            → {data: [{name, total, matched, records}…]}
 *   GET  webhooks                      → {data: [delivery…], endpoint}          newest first
 *   POST webhooks/<event id>/resend    → the outcome of one new, signed delivery of that event
 *   GET  clock                         → {now, timeScale}
 *   POST clock/advance {"by": "6m"}    → {now, timeScale}
 * Each reads the emulator's own tables and logs.
 */
import { MAX_ADVANCE_MS } from '../kernel/clock-routes.js';
import type { EmulatorContext } from '../kernel/context.js';
import { parseDuration } from './duration.js';
import { maskRecord } from './redact.js';
import { requestDetail, requestSummary } from './request-view.js';
import { listResources } from './resources.js';

export interface DataReply {
  status: number;
  body: unknown;
}

const refused = (status: number, message: string): DataReply => ({ status, body: { message } });

const clock = (emu: EmulatorContext): DataReply => ({
  status: 200,
  body: { now: emu.iso(), timeScale: emu.clock.timeScale },
});

function advance(emu: EmulatorContext, body: unknown): DataReply {
  const by = (body as { by?: unknown } | undefined)?.by;
  const ms = typeof by === 'string' ? parseDuration(by) : undefined;
  if (ms === undefined || ms > MAX_ADVANCE_MS)
    return refused(400, 'Advance by takes a duration up to 366d, such as 90s, 6m, 2h or 7d');
  emu.clock.advance(ms);
  return clock(emu);
}

async function resend(emu: EmulatorContext, eventId: string): Promise<DataReply> {
  const event = emu.outbox.events.get(eventId);
  if (!event) return refused(404, `No webhook event ${eventId} in the event log`);
  if (!emu.core.config.webhookEndpoint) return refused(409, 'No webhook endpoint is configured to resend to');
  const result = await emu.outbox.redeliver(event);
  return { status: 200, body: { id: event.id, ok: result.ok, responseStatus: result.status, error: result.error } };
}

/** The answer to one data request; `body` is the parsed JSON of a POST. */
export async function dataReply(
  emu: EmulatorContext,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): Promise<DataReply> {
  const get = method === 'GET';
  if (get && path === 'requests') {
    const after = Number(query.get('after') ?? 0) || 0;
    return {
      status: 200,
      body: { data: emu.requests.since(after).map(requestSummary), lastSeq: emu.requests.lastSeq },
    };
  }
  const one = /^requests\/(\d+)$/.exec(path);
  if (get && one) {
    const entry = emu.requests.get(Number(one[1]));
    return entry ? { status: 200, body: requestDetail(entry) } : refused(404, 'That request is no longer in the log');
  }
  if (get && path === 'resources') return { status: 200, body: { data: listResources(emu, query.get('q') ?? '') } };
  if (get && path === 'webhooks') {
    const data = emu.outbox.deliveries.list().map((d) => ({ ...d, target: maskRecord(d.target) }));
    return { status: 200, body: { data, endpoint: emu.core.config.webhookEndpoint ?? null } };
  }
  const resending = /^webhooks\/([^/]+)\/resend$/.exec(path);
  if (method === 'POST' && resending) return resend(emu, decodeURIComponent(resending[1]!));
  if (get && path === 'clock') return clock(emu);
  if (method === 'POST' && path === 'clock/advance') return advance(emu, body);
  return refused(404, 'Not found');
}
