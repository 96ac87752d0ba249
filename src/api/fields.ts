/**
 * Raw API request bodies from `-f key=value` (always a string) and `-F key=value` (typed: true,
 * false, null, numbers and `@file` contents), as `gh api` builds them. A key is a dot path
 * (`address.city=Paris` makes `{"address":{"city":"Paris"}}`) and may end in `[]` to append to an
 * array (`fundingSources[]=InternalAccount:…`). Every bad field is reported at once, before any
 * request, naming the flag it came from.
 */
import { UsageError } from '../errors.js';

export type FieldKind = 'raw' | 'typed';
/** One `-f`/`-F` value as typed on the command line, with which flag it came from. */
export interface FieldArg {
  kind: FieldKind;
  text: string;
}
/** Reads a file for `-F key=@file` (`@-` is stdin); the core does no I/O of its own. */
export type ReadValue = (path: string) => Promise<string>;

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const FLAG: Record<FieldKind, string> = { raw: '-f', typed: '-F' };
const SEGMENT = /^[A-Za-z0-9_$-][A-Za-z0-9_$-]*$/;

/** `-F` values: JSON literals and numbers keep their type, `@path` is the file's text, anything else a string. */
async function typedValue(value: string, read: ReadValue): Promise<Json> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) {
    const n = Number(value);
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  if (value.startsWith('@')) return (await read(value.slice(1))).replace(/\r?\n$/, '');
  return value;
}

interface Parsed {
  path: string[];
  append: boolean;
  value: Json;
}

/** Splits `a.b[]=v` into its path and value; a message naming what is wrong otherwise. */
function splitKey(text: string): { path: string[]; append: boolean; value: string } | string {
  const eq = text.indexOf('=');
  if (eq <= 0) return `"${text}" is not key=value`;
  let key = text.slice(0, eq);
  const append = key.endsWith('[]');
  if (append) key = key.slice(0, -2);
  const path = key.split('.');
  const bad = path.find((segment) => !SEGMENT.test(segment));
  if (bad !== undefined)
    return `"${key}" has an empty or unusual segment "${bad}" (use letters, digits, _ - $ and dots)`;
  return { path, append, value: text.slice(eq + 1) };
}

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Puts one value at its path; a message when the path crosses a value already set. */
function place(body: JsonObject, field: Parsed): string | undefined {
  let node = body;
  for (const [i, segment] of field.path.slice(0, -1).entries()) {
    const next = node[segment];
    if (next === undefined) node = node[segment] = {};
    else if (isObject(next)) node = next;
    else
      return `"${field.path.slice(0, i + 1).join('.')}" is already a value, so it cannot hold "${field.path.slice(i + 1).join('.')}"`;
  }
  const last = field.path[field.path.length - 1]!;
  const existing = node[last];
  if (field.append) {
    if (existing === undefined) node[last] = [field.value];
    else if (Array.isArray(existing)) existing.push(field.value);
    else return `"${field.path.join('.')}" is already a value, so "[]" cannot append to it`;
    return undefined;
  }
  if (isObject(existing)) return `"${field.path.join('.')}" already holds nested fields, so it cannot also be a value`;
  if (existing !== undefined) return `"${field.path.join('.')}" is given twice (end the key with [] to make an array)`;
  node[last] = field.value;
  return undefined;
}

/** The JSON object the fields describe; one UsageError listing every bad field otherwise. */
export async function buildFields(args: readonly FieldArg[], read: ReadValue): Promise<JsonObject> {
  const body: JsonObject = {};
  const problems: string[] = [];
  const flags = new Set<string>();
  for (const arg of args) {
    const split = splitKey(arg.text);
    const fail = (why: string) => {
      problems.push(`${FLAG[arg.kind]} ${why}`);
      flags.add(FLAG[arg.kind]);
    };
    if (typeof split === 'string') {
      fail(split);
      continue;
    }
    let value: Json;
    try {
      value = arg.kind === 'typed' ? await typedValue(split.value, read) : split.value;
    } catch (error) {
      fail(`${split.path.join('.')}: ${(error as Error).message.replace(/^cannot read -F /, 'cannot read ')}`);
      continue;
    }
    const why = place(body, { path: split.path, append: split.append, value });
    if (why) fail(why);
  }
  if (problems.length > 0) {
    throw new UsageError(`Bad field${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}.`, {
      input: [...flags].join(','),
      hint: 'Fields are key=value; -F types true/false/null/numbers and reads @file; nest with a.b=, append with a[]=.',
    });
  }
  return body;
}

/** Query parameters from `k=v` pairs (and from fields of a GET): `k=v&…`, each part encoded. */
export function queryString(pairs: readonly [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** Flattens a field object into query pairs: nested keys as `a.b`, arrays repeated, values as text. */
export function flattenToQuery(body: JsonObject, prefix = ''): [string, string][] {
  return Object.entries(body).flatMap(([key, value]): [string, string][] => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isObject(value)) return flattenToQuery(value, name);
    if (Array.isArray(value))
      return value.map((v): [string, string] => [name, typeof v === 'string' ? v : JSON.stringify(v)]);
    return [[name, typeof value === 'string' ? value : JSON.stringify(value)]];
  });
}
