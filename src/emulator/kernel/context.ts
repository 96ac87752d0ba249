/**
 * The shared context every handler receives: the kernel's durable state, the resolved options, the
 * clock, the tables the features registered and the services (webhook outbox, state file). One per
 * running emulator; nothing is a module singleton.
 */
import type { VirtualClock } from './clock.js';
import type { ResolvedOptions } from '../options.js';
import type { EmulatorLogEntry } from './options.js';
import type { WebhookOutbox } from './outbox.js';
import { RequestLog } from './request-log.js';
import type { CoreState } from './state.js';
import type { StateFile } from './state-file.js';
import type { Table, TableDef, TableSet } from './tables.js';

export class EmulatorContext {
  readonly core: CoreState;
  readonly opts: ResolvedOptions;
  readonly file: StateFile | undefined;
  readonly clock: VirtualClock;
  private readonly tables: TableSet;
  /** http://host:port, set once listening (reveal links point here). */
  origin = '';
  outbox!: WebhookOutbox;
  /** The newest requests answered (the dashboard's Requests view, `svc emulator logs`). */
  readonly requests = new RequestLog();
  private closed = false;
  private lastIsoMs = Number.NaN;
  private lastIso = '';

  constructor(init: {
    core: CoreState;
    opts: ResolvedOptions;
    file: StateFile | undefined;
    clock: VirtualClock;
    tables: TableSet;
  }) {
    this.core = init.core;
    this.opts = init.opts;
    this.file = init.file;
    this.clock = init.clock;
    this.tables = init.tables;
  }

  /** The table a feature declared (see tables.ts). */
  table<T>(def: TableDef<T>): Table<T> {
    return this.tables.get(def);
  }

  /** A record by its id, whichever area's durable table holds it (agent scoping reads owners this way). */
  lookup(id: string): unknown {
    return this.tables.lookup(id);
  }

  /** Virtual epoch milliseconds: the only "now" in the emulator. */
  now(): number {
    return this.clock.now();
  }

  /**
   * ISO 8601 of ms (default now). The last one is reused for the same millisecond: a record stores
   * its createdAt and updatedAt, and a customer created with its two accounts would otherwise hold
   * three copies of one 40-byte string (test/bench/growth.mjs measures memory per customer).
   */
  iso(ms = this.now()): string {
    if (ms !== this.lastIsoMs) {
      this.lastIso = new Date(ms).toISOString();
      this.lastIsoMs = ms;
    }
    return this.lastIso;
  }

  /** Durable state changed in place: save it (when a state file is in use). Table writes call this themselves. */
  changed(): void {
    this.file?.changed();
  }

  log(entry: EmulatorLogEntry): void {
    this.opts.log?.(entry);
  }

  /** Runs fn after ms of virtual time; never after close. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    this.clock.setTimer(ms, () => {
      if (!this.closed) fn();
    });
  }

  stopTimers(): void {
    this.closed = true;
    this.clock.stop();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
