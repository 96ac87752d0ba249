/**
 * Typed tables of records keyed by id. An area declares its tables next to its records
 * (`durableTable<CustomerRecord>('customers')`) and lists them in its feature; the kernel creates
 * one Table per declaration and emulator, and the durable ones are saved in, and loaded from, the
 * state file under their own name. So a new area adds tables without touching any central list.
 * Memory tables hold what a restart may forget (pending challenges, reveal links).
 */

export interface TableDef<T> {
  readonly name: string;
  readonly durable: boolean;
  /** Never read: it carries the record type. */
  readonly _record?: T;
}

/** A table saved in the --state file under `name` (JSON-serializable records only). */
export function durableTable<T>(name: string): TableDef<T> {
  return { name, durable: true };
}

/** A table that lives as long as the process. */
export function memoryTable<T>(name: string): TableDef<T> {
  return { name, durable: false };
}

export class Table<T> {
  private readonly rows = new Map<string, T>();
  private readonly changed: () => void;

  constructor(changed: () => void) {
    this.changed = changed;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Inserts or replaces; the state file is saved. */
  set(id: string, record: T): T {
    this.rows.set(id, record);
    this.changed();
    return record;
  }

  delete(id: string): boolean {
    const had = this.rows.delete(id);
    if (had) this.changed();
    return had;
  }

  /** Deletes every record the predicate picks; returns how many. */
  deleteWhere(pick: (record: T, id: string) => boolean): number {
    let n = 0;
    for (const [id, record] of this.rows) if (pick(record, id) && this.rows.delete(id)) n++;
    if (n > 0) this.changed();
    return n;
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  entries(): IterableIterator<[string, T]> {
    return this.rows.entries();
  }

  get size(): number {
    return this.rows.size;
  }

  find(pick: (record: T) => boolean): T | undefined {
    for (const record of this.rows.values()) if (pick(record)) return record;
    return undefined;
  }

  filter(pick: (record: T) => boolean): T[] {
    return [...this.rows.values()].filter(pick);
  }

  toJSON(): Record<string, T> {
    return Object.fromEntries(this.rows);
  }

  /** Loads saved rows without marking anything changed. */
  load(rows: Record<string, T>): void {
    for (const [id, record] of Object.entries(rows)) this.rows.set(id, record);
  }
}

/** The tables of one emulator, by declaration. */
export class TableSet {
  private readonly tables = new Map<string, { def: TableDef<unknown>; table: Table<unknown> }>();
  private readonly changed: () => void;

  constructor(changed: () => void, reserved: readonly string[]) {
    this.changed = changed;
    for (const name of reserved) this.tables.set(name, { def: memoryTable(name), table: new Table(() => undefined) });
  }

  register(def: TableDef<unknown>): void {
    if (this.tables.has(def.name)) throw new Error(`emulator table ${def.name} is declared twice`);
    this.tables.set(def.name, { def, table: new Table(def.durable ? this.changed : () => undefined) });
  }

  get<T>(def: TableDef<T>): Table<T> {
    const entry = this.tables.get(def.name);
    if (!entry || entry.def !== def) throw new Error(`emulator table ${def.name} is not registered by any feature`);
    return entry.table as Table<T>;
  }

  /** The record stored under id in any durable table (ids are unique across areas by their prefix). */
  lookup(id: string): unknown {
    for (const { def, table } of this.tables.values()) {
      if (!def.durable) continue;
      const record = table.get(id);
      if (record !== undefined) return record;
    }
    return undefined;
  }

  /** name → table of every durable table (what the state file holds). */
  durable(): Map<string, Table<unknown>> {
    const out = new Map<string, Table<unknown>>();
    for (const [name, { def, table }] of this.tables) if (def.durable) out.set(name, table);
    return out;
  }
}
