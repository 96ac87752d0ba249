/** What jq's builtins do to a value (builtins.ts names them): lengths, keys, sorting, grouping, entries, joins. */
import { described, JqRuntimeError, typeName } from './errors.js';
import type { Filter } from './builtins.js';
import { arithmetic, compare, isObject, iterate, type Json, type JsonObject, sortedKeys, truthy } from './values.js';

const all = (f: Filter, v: Json): Json[] => [...f(v)];

export function needArray(v: Json, what: string): Json[] {
  if (!Array.isArray(v)) throw new JqRuntimeError(`${described(v)} cannot be ${what}, as it is not an array`);
  return v;
}
export function needString(v: Json, what: string): string {
  if (typeof v !== 'string') throw new JqRuntimeError(`${described(v)} ${what}`);
  return v;
}

export function length(v: Json): Json {
  if (v === null) return 0;
  if (typeof v === 'boolean') throw new JqRuntimeError(`${described(v)} has no length`);
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'string') return [...v].length;
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

export function keys(v: Json, sorted: boolean): Json {
  if (Array.isArray(v)) return v.map((_, i) => i);
  if (isObject(v)) return sorted ? sortedKeys(v) : Object.keys(v);
  throw new JqRuntimeError(`${described(v)} has no keys`);
}

/** Stable sort of `items` by the outputs of `by` on each (jq's `sort_by`: `[f]` compared as arrays). */
export function sortBy(items: Json[], by: Filter): { item: Json; key: Json }[] {
  return items.map((item) => ({ item, key: all(by, item) })).sort((a, b) => compare(a.key, b.key));
}

export function groupBy(v: Json, by: Filter): Json[][] {
  const groups: Json[][] = [];
  let last: Json | undefined;
  for (const { item, key } of sortBy(needArray(v, 'grouped'), by)) {
    if (last !== undefined && compare(last, key) === 0) groups[groups.length - 1]!.push(item);
    else groups.push([item]);
    last = key;
  }
  return groups;
}

export function extreme(v: Json, by: Filter, max: boolean): Json {
  const sorted = sortBy(needArray(v, 'compared'), by);
  if (sorted.length === 0) return null;
  if (!max) return sorted[0]!.item;
  return sorted[sorted.length - 1]!.item;
}

export function fromEntries(v: Json): Json {
  const out: JsonObject = {};
  for (const entry of iterate(v)) {
    if (!isObject(entry)) throw new JqRuntimeError(`Cannot index ${typeName(entry)} with "key"`);
    const key = [entry.key, entry.k, entry.name, entry.Name, entry.K, entry.Key].find((k) => truthy(k ?? null));
    if (key === undefined || (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean'))
      throw new JqRuntimeError(`Cannot use ${typeName(key ?? null)} as object key`);
    out[typeof key === 'string' ? key : JSON.stringify(key)] =
      (Object.hasOwn(entry, 'value') ? entry.value : entry.v) ?? null;
  }
  return out;
}

export function join(v: Json, separator: Json): Json {
  let out: string | null = null;
  for (const item of iterate(v)) {
    const text =
      item === null ? '' : typeof item === 'number' || typeof item === 'boolean' ? JSON.stringify(item) : item;
    out = arithmetic('+', out === null ? '' : arithmetic('+', out, separator), text) as string;
  }
  return out ?? '';
}

export function contains(a: Json, b: Json): boolean {
  if (typeName(a) !== typeName(b))
    throw new JqRuntimeError(`${described(a)} and ${described(b)} cannot have their containment checked`);
  if (typeof a === 'string') return a.includes(b as string);
  if (Array.isArray(a)) return (b as Json[]).every((x) => a.some((y) => typeName(x) === typeName(y) && contains(y, x)));
  if (isObject(a))
    return Object.entries(b as JsonObject).every(
      ([k, x]) => Object.hasOwn(a, k) && typeName(a[k]!) === typeName(x) && contains(a[k]!, x),
    );
  return compare(a, b) === 0;
}

export function flatten(v: Json, depth: Json): Json[] {
  if (typeof depth !== 'number' || depth < 0) throw new JqRuntimeError('flatten depth must not be negative');
  return needArray(v, 'flattened').flatMap((x) => (Array.isArray(x) && depth > 0 ? flatten(x, depth - 1) : [x]));
}

export function toNumber(v: Json): Json {
  if (typeof v === 'number') return v;
  const n = typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
  if (Number.isNaN(n)) throw new JqRuntimeError(`${described(v)} cannot be parsed as a number`);
  return n;
}

/** A row for @csv or @tsv: every item a scalar. */
export function row(v: Json, format: string, cell: (x: Json) => string, separator: string): string {
  return needArray(v, `${format} formatted`)
    .map((x) => {
      if (x !== null && typeof x === 'object') throw new JqRuntimeError(`${described(x)} is not valid in a csv row`);
      return x === null ? '' : cell(x);
    })
    .join(separator);
}

export function fail(message: string): never {
  throw new JqRuntimeError(message);
}
export function needNumber(v: Json): number {
  if (typeof v !== 'number') throw new JqRuntimeError(`${described(v)} number required`);
  return v;
}
