/**
 * The webhook types a run caused, read from the emulator's event log
 * (GET /_emulator/webhooks/events), which records every event when it is raised, delivered or not.
 * Nothing about delivery changes: the configured endpoint (a running listener, your app)
 * gets its deliveries as always. The service's API has no event list, so this is emulator-only.
 */
import type { ApiClient } from '../http/types.js';
import { ApiError, SvcError } from '../errors.js';

const EVENTS_PATH = '/_emulator/webhooks/events';

interface LoggedEvent {
  id: string;
  type: string;
  data?: unknown;
}

export interface EventLogReader {
  /** The types of the events raised since the reader was made that concern one of `ids`, oldest first. */
  read(ids: ReadonlySet<string>): Promise<string[]>;
}

/** Whether an event is about one of the run's resources: its data (or data one level down) names one of their ids. */
function concerns(event: { data?: unknown }, ids: ReadonlySet<string>): boolean {
  const values = (o: unknown): unknown[] => (o !== null && typeof o === 'object' ? Object.values(o as object) : []);
  const data = values(event.data);
  return [...data, ...data.flatMap(values)].some((v) => typeof v === 'string' && ids.has(v));
}

function notEmulator(client: ApiClient, cause: unknown): SvcError {
  return new SvcError(
    `${new URL(client.baseUrl).origin} has no event log: the events a run caused are read only from the embedded emulator.`,
    {
      reason: 'NO_EVENT_LOG',
      hint: 'Against the remote sandbox, watch the deliveries with a webhook listener instead.',
      cause,
    },
  );
}

/** Notes the emulator's time now, so `read` sees only the events raised from here on. */
export async function emulatorEventLog(client: ApiClient, signal?: AbortSignal): Promise<EventLogReader> {
  let since: string;
  try {
    const clock = await client.request<{ now?: unknown }>({
      method: 'GET',
      path: '/_emulator/clock',
      fromRoot: true,
      ...(signal && { signal }),
    });
    if (typeof clock.body?.now !== 'string')
      throw new ApiError({
        status: clock.status,
        code: 'INVALID_RESPONSE',
        message: 'GET /_emulator/clock gave no time',
      });
    since = clock.body.now;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.code === 'INVALID_RESPONSE'))
      throw notEmulator(client, error);
    throw error;
  }
  return {
    async read(ids) {
      const res = await client.request<{ data?: LoggedEvent[] }>({
        method: 'GET',
        path: `${EVENTS_PATH}?since=${encodeURIComponent(since)}`,
        fromRoot: true,
        ...(signal && { signal }),
      });
      return (res.body?.data ?? []).filter((e) => concerns(e, ids)).map((e) => e.type);
    },
  };
}
