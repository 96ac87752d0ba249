/**
 * The event log: every webhook event the emulator raised, delivered or not, so that events raised
 * while nothing was listening (no endpoint set) are kept instead of lost, and any of them can be
 * delivered again (`POST /_emulator/webhooks/replay`). Each entry keeps the exact body bytes of the
 * event, so a replay carries the same envelope `id` and is signed over the same bytes.
 *
 * Bounded: the newest `eventLogLimit` events are kept (default 1000); the oldest go first. It is a
 * durable table, so `--state` keeps it across restarts like any other.
 */
import type { KernelResolved } from './options.js';
import { durableTable, type Table, type TableDef } from './tables.js';

/** What the event log uses of the emulator (EmulatorContext provides it), named here so the two do not import each other. */
export interface EventLogHost {
  readonly opts: KernelResolved;
  table<T>(def: TableDef<T>): Table<T>;
  changed(): void;
}

/** `undelivered`: no endpoint was set when it happened; `failed`: every attempt failed. */
type DeliveryState = 'undelivered' | 'pending' | 'delivered' | 'failed';

export interface LoggedEvent {
  id: string;
  type: string;
  /** The envelope's timestamp: when the event happened, on the emulator clock. */
  timestamp: string;
  /** The exact bytes sent and signed. */
  body: string;
  delivery: DeliveryState;
  /** Attempts so far, replays included. */
  attempts: number;
}

export const webhookEvents = durableTable<LoggedEvent>('webhookEvents', {
  id: 'string',
  type: 'string',
  timestamp: 'string',
  body: 'string',
  delivery: 'string',
  attempts: 'number',
});

export interface EventSelection {
  ids?: readonly string[];
  types?: readonly string[];
  /** Epoch ms; events at or after it. */
  sinceMs?: number;
}

export class EventLog {
  private readonly emu: EventLogHost;

  constructor(emu: EventLogHost) {
    this.emu = emu;
  }

  private get table() {
    return this.emu.table(webhookEvents);
  }

  record(event: Omit<LoggedEvent, 'attempts'>): void {
    this.table.set(event.id, { ...event, attempts: 0 });
    // A Map keeps insertion order (and the state file keeps it too), so the first entries are the oldest.
    let excess = this.table.size - this.emu.opts.eventLogLimit;
    const oldest: string[] = [];
    for (const [id] of this.table.entries()) {
      if (excess-- <= 0) break;
      oldest.push(id);
    }
    for (const id of oldest) this.table.delete(id);
  }

  get(id: string): LoggedEvent | undefined {
    return this.table.get(id);
  }

  /** After one attempt: `done` when the outbox stops trying (delivered, or given up). */
  noteAttempt(id: string, ok: boolean, done: boolean): void {
    const event = this.table.get(id);
    if (!event) return; // evicted meanwhile; the delivery goes on without it
    event.attempts += 1;
    // Once delivered it stays delivered: a later replay that fails does not unmake the first delivery.
    if (event.delivery !== 'delivered') event.delivery = ok ? 'delivered' : done ? 'failed' : 'pending';
    this.emu.changed();
  }

  /** The events every given criterion picks, oldest first. */
  select(selection: EventSelection): LoggedEvent[] {
    const ids = selection.ids && new Set(selection.ids);
    const types = selection.types && new Set(selection.types);
    return [...this.table.values()].filter(
      (e) =>
        (!ids || ids.has(e.id)) &&
        (!types || types.has(e.type)) &&
        (selection.sinceMs === undefined || Date.parse(e.timestamp) >= selection.sinceMs),
    );
  }
}
