/** jq's rules for values: truth, order, equality, indexing, iteration, slices and arithmetic. */
import { described, JqRuntimeError, typeName } from './errors.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (v: Json): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
export const truthy = (v: Json): boolean => v !== null && v !== false;

const RANK = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 } as const;
const rank = (v: Json) => (v === true ? 2 : RANK[typeName(v) as keyof typeof RANK]);

/** Object keys in jq's order: by code point. */
export const sortedKeys = (o: JsonObject): string[] => Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function compare(a: Json, b: Json): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' || typeof a === 'string') return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  if (Array.isArray(a)) {
    const other = b as Json[];
    for (let i = 0; i < Math.min(a.length, other.length); i++) {
      const c = compare(a[i]!, other[i]!);
      if (c !== 0) return c;
    }
    return a.length - other.length === 0 ? 0 : a.length < other.length ? -1 : 1;
  }
  if (isObject(a)) {
    const other = b as JsonObject;
    const byKeys = compare(sortedKeys(a), sortedKeys(other));
    if (byKeys !== 0) return byKeys;
    for (const key of sortedKeys(a)) {
      const c = compare(a[key]!, other[key]!);
      if (c !== 0) return c;
    }
  }
  return 0;
}

export function index(v: Json, key: Json): Json {
  if (v === null && (typeof key === 'string' || typeof key === 'number' || key === null)) return null;
  if (typeof key === 'string' && isObject(v)) return Object.hasOwn(v, key) ? v[key]! : null;
  if (typeof key === 'number' && Array.isArray(v)) {
    const i = Math.floor(key);
    return v[i < 0 ? v.length + i : i] ?? null;
  }
  throw new JqRuntimeError(
    `Cannot index ${typeName(v)} with ${typeof key === 'string' ? JSON.stringify(key) : typeName(key)}`,
  );
}

export function iterate(v: Json): Json[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  throw new JqRuntimeError(`Cannot iterate over ${described(v)}`);
}

/** `.[from:to]` of an array or string (null stays null); ends count from the back when negative. */
export function slice(v: Json, from: Json, to: Json): Json {
  if (v === null) return null;
  if (typeof v !== 'string' && !Array.isArray(v)) throw new JqRuntimeError(`Cannot index ${typeName(v)} with object`);
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number'))
    throw new JqRuntimeError('Start and end indices of an array slice must be numbers');
  const items = typeof v === 'string' ? [...v] : v;
  const clamp = (n: number) => Math.min(items.length, Math.max(0, n < 0 ? items.length + n : n));
  const start = clamp(from === null ? 0 : Math.floor(from));
  const end = Math.max(start, clamp(to === null ? items.length : Math.ceil(to)));
  const part = items.slice(start, end);
  return typeof v === 'string' ? (part as string[]).join('') : part;
}

function cannot(op: string, a: Json, b: Json): JqRuntimeError {
  return new JqRuntimeError(`${described(a)} and ${described(b)} cannot be ${op}`);
}

function deepMerge(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = out[k];
    out[k] = mine !== undefined && isObject(mine) && isObject(v) ? deepMerge(mine, v) : v;
  }
  return out;
}

export function arithmetic(op: string, a: Json, b: Json): Json {
  if (op === '+') {
    if (a === null) return b;
    if (b === null) return a;
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (isObject(a) && isObject(b)) return { ...a, ...b };
    throw cannot('added', a, b);
  }
  if (op === '-') {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => compare(x, y) === 0));
    throw cannot('subtracted', a, b);
  }
  if (op === '*') {
    if (typeof a === 'number' && typeof b === 'number') return a * b;
    const [text, times] = typeof a === 'string' ? [a, b] : [b, a];
    if (typeof text === 'string' && typeof times === 'number') return times > 0 ? text.repeat(Math.ceil(times)) : null;
    if (isObject(a) && isObject(b)) return deepMerge(a, b);
    throw cannot('multiplied', a, b);
  }
  if (op === '/') {
    if (typeof a === 'number' && typeof b === 'number') {
      if (b === 0) throw cannot('divided because the divisor is zero', a, b);
      return a / b;
    }
    if (typeof a === 'string' && typeof b === 'string') return a === '' ? [] : a.split(b);
    throw cannot('divided', a, b);
  }
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.trunc(b) === 0) throw cannot('divided because the divisor is zero', a, b);
    return Math.trunc(a) % Math.trunc(b);
  }
  throw cannot('divided', a, b);
}
