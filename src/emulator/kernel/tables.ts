/**
 * Typed tables of records keyed by id. An area declares its tables next to its records
 * (`durableTable<CustomerRecord>('customers')`) and lists them in its feature; the kernel creates
 * one Table per declaration and emulator, and the durable ones are saved in, and loaded from, the
 * state file under their own name. So a new area adds tables without touching any central list.
 * Memory tables hold what a restart may forget (pending challenges, reveal links).
 *
 * A lookup on a request path goes through an index (`tableIndex`, `where`, `first`), never a scan
 * of every row: a scan makes each request slower as the store grows (test/bench/growth.mjs checks
 * that creating customers keeps its pace up to 60,000).
 */

import type { Shape } from './record-shape.js';

export interface TableDef<T> {
  readonly name: string;
  readonly durable: boolean;
  /** What a record must look like in the --state file (checked at load). */
  readonly shape?: Readonly<Record<string, string>>;
  /** A record of an earlier shape that the area rewrites when it resumes (its migration), not held to `shape`. */
  readonly earlier?: (record: Record<string, unknown>) => boolean;
  /** Never read: it carries the record type. */
  readonly _record?: T;
}

/**
 * A table saved in the --state file under `name` (JSON-serializable records only). Its records'
 * `shape` is checked when the file is loaded: a record of another shape is refused at start
 * (record-shape.ts), so a hand-edited file cannot make a handler read a field of the wrong kind.
 */
export function durableTable<T>(
  name: string,
  shape: Shape<T>,
  earlier?: (record: Record<string, unknown>) => boolean,
): TableDef<T> {
  return earlier ? { name, durable: true, shape, earlier } : { name, durable: true, shape };
}

/** A table that lives as long as the process. */
export function memoryTable<T>(name: string): TableDef<T> {
  return { name, durable: false };
}

/**
 * A key a table can look its records up by (`emu.table(customers).first(byPlatformId, value)`).
 * `key` returns undefined for a record that the index leaves out. Declare one next to the table,
 * at module level: the index is built on first use and kept up to date by set, delete and load.
 * A record whose key field changes must be written back with `set` (as every change that should
 * reach the --state file already is); a lookup re-checks each candidate's key, so an index is never
 * wrong, only a record changed in place and never set would be missed.
 */
export interface IndexDef<T> {
  readonly key: (record: T) => string | undefined;
}

export function tableIndex<T>(key: (record: T) => string | undefined): IndexDef<T> {
  return { key };
}

/**
 * Ids under one key: the id alone (most keys are unique), a small array for a few (a customer's two
 * accounts), a Set once there are many (an agent's transactions), so removal stays cheap where it
 * must. An array of two costs 64 bytes where a Set costs about 150: with an index entry for every
 * customer, that counts against the memory budget per stored customer (test/bench/growth.mjs).
 */
type Bucket = string | string[] | Set<string>;

/** More ids than this under one key move from an array to a Set. */
const SMALL_BUCKET = 8;

/** key → its bucket of ids, in insertion order. */
class Index<T> {
  private readonly buckets = new Map<string, Bucket>();
  private readonly def: IndexDef<T>;

  constructor(def: IndexDef<T>, rows: Map<string, T>) {
    this.def = def;
    for (const [id, record] of rows) this.add(id, record);
  }

  add(id: string, record: T): void {
    const key = this.def.key(record);
    if (key === undefined) return;
    const bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, id);
    else if (typeof bucket === 'string') {
      if (bucket !== id) this.buckets.set(key, [bucket, id]);
    } else if (Array.isArray(bucket)) {
      if (bucket.includes(id)) return;
      bucket.push(id);
      if (bucket.length > SMALL_BUCKET) this.buckets.set(key, new Set(bucket));
    } else bucket.add(id);
  }

  /**
   * After `set`: an unchanged key keeps the record's place in its bucket (so lists stay in order). A
   * record changed in place leaves its old key's entry behind, for a lookup to drop.
   */
  replace(id: string, old: T | undefined, record: T): void {
    if (old !== undefined && old !== record) {
      const before = this.def.key(old);
      if (before !== undefined && before !== this.def.key(record)) this.drop(before, id);
    }
    this.add(id, record);
  }

  remove(id: string, record: T): void {
    const key = this.def.key(record);
    if (key !== undefined) this.drop(key, id);
  }

  private drop(key: string, id: string): void {
    const bucket = this.buckets.get(key);
    if (bucket === id) this.buckets.delete(key);
    else if (Array.isArray(bucket)) {
      const at = bucket.indexOf(id);
      if (at >= 0) bucket.splice(at, 1);
      if (bucket.length === 1) this.buckets.set(key, bucket[0]!);
    } else if (typeof bucket === 'object') {
      bucket.delete(id);
      if (bucket.size === 1) this.buckets.set(key, bucket.values().next().value!);
    }
  }

  /** The records under key, in insertion order; ids whose record moved away are dropped on the way. */
  lookup(key: string, rows: Map<string, T>): T[] {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return [];
    const out: T[] = [];
    for (const id of typeof bucket === 'string' ? [bucket] : [...bucket]) {
      const record = rows.get(id);
      if (record !== undefined && this.def.key(record) === key) out.push(record);
      else this.drop(key, id);
    }
    return out;
  }
}

export class Table<T> {
  private readonly rows = new Map<string, T>();
  private readonly changed: (id: string) => void;
  private readonly indexes = new Map<IndexDef<T>, Index<T>>();

  constructor(changed: (id: string) => void) {
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
    const old = this.rows.get(id);
    this.rows.set(id, record);
    for (const index of this.indexes.values()) index.replace(id, old, record);
    this.changed(id);
    return record;
  }

  delete(id: string): boolean {
    const old = this.rows.get(id);
    if (old === undefined) return false;
    this.rows.delete(id);
    for (const index of this.indexes.values()) index.remove(id, old);
    this.changed(id);
    return true;
  }

  /** Deletes every record the predicate picks; returns how many. */
  deleteWhere(pick: (record: T, id: string) => boolean): number {
    let n = 0;
    for (const [id, record] of this.rows) {
      if (!pick(record, id)) continue;
      this.rows.delete(id);
      for (const index of this.indexes.values()) index.remove(id, record);
      this.changed(id);
      n++;
    }
    return n;
  }

  /** The records whose `def.key` is key (an index lookup: no scan). */
  where(def: IndexDef<T>, key: string): T[] {
    return this.index(def).lookup(key, this.rows);
  }

  /** The first record whose `def.key` is key. */
  first(def: IndexDef<T>, key: string): T | undefined {
    return this.where(def, key)[0];
  }

  private index(def: IndexDef<T>): Index<T> {
    let index = this.indexes.get(def);
    if (!index) this.indexes.set(def, (index = new Index(def, this.rows)));
    return index;
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
    for (const [id, record] of Object.entries(rows)) {
      this.rows.set(id, record);
      for (const index of this.indexes.values()) index.add(id, record);
    }
  }
}

/** The tables of one emulator, by declaration. */
export class TableSet {
  private readonly tables = new Map<string, { def: TableDef<unknown>; table: Table<unknown> }>();
  private readonly changed: (table: string, id: string) => void;

  constructor(changed: (table: string, id: string) => void, reserved: readonly string[]) {
    this.changed = changed;
    for (const name of reserved) this.tables.set(name, { def: memoryTable(name), table: new Table(() => undefined) });
  }

  register(def: TableDef<unknown>): void {
    if (this.tables.has(def.name)) throw new Error(`emulator table ${def.name} is declared twice`);
    const changed = def.durable ? (id: string) => this.changed(def.name, id) : () => undefined;
    this.tables.set(def.name, { def, table: new Table(changed) });
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

  /** The shape declared for a durable table's records, if any. */
  shapeOf(name: string): Readonly<Record<string, string>> | undefined {
    return this.tables.get(name)?.def.shape;
  }

  /** How a durable table tells a record of an earlier shape (which its area migrates), if it has any. */
  earlierOf(name: string): ((record: Record<string, unknown>) => boolean) | undefined {
    return this.tables.get(name)?.def.earlier;
  }

  /** name → table of every durable table (what the state file holds). */
  durable(): Map<string, Table<unknown>> {
    const out = new Map<string, Table<unknown>>();
    for (const [name, { def, table }] of this.tables) if (def.durable) out.set(name, table);
    return out;
  }
}
