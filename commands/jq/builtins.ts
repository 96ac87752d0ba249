/**
 * The jq functions --jq knows, by name and arity (`map/1`), written to jq 1.6's and 1.7's shared
 * behaviour. Arguments are filters, run on the same input as the call (jq's closures), so
 * `map(.id)` and `sort_by(.createdAt)` work as in jq. A name missing here is refused when compiling.
 */
import { described, JqRuntimeError, JqSyntaxError, typeName } from './errors.js';
import {
  contains,
  extreme,
  fail,
  flatten,
  fromEntries,
  groupBy,
  join,
  keys,
  length,
  needArray,
  needNumber,
  needString,
  row,
  sortBy,
  toNumber,
} from './collections.js';
import { arithmetic, compare, isObject, iterate, type Json, type JsonObject, truthy } from './values.js';

export type Filter = (v: Json) => Iterable<Json>;
type Builtin = (v: Json, args: Filter[]) => Iterable<Json>;

const one = (f: (v: Json) => Json): Builtin =>
  function* (v) {
    yield f(v);
  };
/** One output per output of the single argument, from `f(input, argument)`. */
const withArg = (f: (v: Json, a: Json) => Json): Builtin =>
  function* (v, [a]) {
    for (const x of a!(v)) yield f(v, x);
  };
const all = (f: Filter, v: Json): Json[] => [...f(v)];

const TYPES: Record<string, (v: Json) => boolean> = {
  arrays: Array.isArray,
  objects: isObject,
  iterables: (v) => Array.isArray(v) || isObject(v),
  scalars: (v) => v === null || typeof v !== 'object',
  strings: (v) => typeof v === 'string',
  numbers: (v) => typeof v === 'number',
  booleans: (v) => typeof v === 'boolean',
  nulls: (v) => v === null,
  values: (v) => v !== null,
};

const BUILTINS: Record<string, Builtin> = {
  'empty/0': function* () {},
  'not/0': one((v) => !truthy(v)),
  'length/0': one(length),
  'utf8bytelength/0': one((v) => Buffer.byteLength(needString(v, 'only strings have UTF-8 byte length'))),
  'keys/0': one((v) => keys(v, true)),
  'keys_unsorted/0': one((v) => keys(v, false)),
  'type/0': one(typeName),
  'add/0': one((v) => iterate(v).reduce<Json>((sum, x) => arithmetic('+', sum, x), null)),
  'has/1': withArg((v, k) => {
    if (isObject(v) && typeof k === 'string') return Object.hasOwn(v, k);
    if (Array.isArray(v) && typeof k === 'number') return k >= 0 && k < v.length;
    throw new JqRuntimeError(`Cannot check whether ${typeName(v)} has a ${typeName(k)} key`);
  }),
  'contains/1': withArg(contains),
  'map/1': function* (v, [f]) {
    yield iterate(v).flatMap((x) => all(f!, x));
  },
  'map_values/1': function* (v, [f]) {
    if (Array.isArray(v)) yield v.flatMap((x) => all(f!, x).slice(0, 1));
    else if (isObject(v)) {
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        const [first] = all(f!, x);
        if (first !== undefined) out[k] = first;
      }
      yield out;
    } else iterate(v);
  },
  'select/1': function* (v, [f]) {
    for (const c of f!(v)) if (truthy(c)) yield v;
  },
  'recurse/1': function* recurse(v, [f]): Generator<Json> {
    yield v;
    for (const x of f!(v)) yield* recurse(x, [f!]);
  },
  'to_entries/0': one((v) =>
    (keys(v, false) as (string | number)[]).map((key) => ({ key, value: (v as JsonObject)[key]! })),
  ),
  'from_entries/0': one(fromEntries),
  'with_entries/1': function* (v, [f]) {
    const entries = Object.keys(isObject(v) ? v : {}).map((key) => ({ key, value: (v as JsonObject)[key]! }));
    if (!isObject(v)) keys(v, false);
    yield fromEntries(entries.flatMap((e) => all(f!, e)));
  },
  'join/1': withArg(join),
  'sort/0': one((v) => [...needArray(v, 'sorted')].sort(compare)),
  'sort_by/1': one2((v, f) => sortBy(needArray(v, 'sorted'), f).map((x) => x.item)),
  'group_by/1': one2(groupBy),
  'unique/0': one((v) => groupBy(v, (x) => [x]).map((g) => g[0]!)),
  'unique_by/1': one2((v, f) => groupBy(v, f).map((g) => g[0]!)),
  'min/0': one((v) => extreme(v, (x) => [x], false)),
  'max/0': one((v) => extreme(v, (x) => [x], true)),
  'min_by/1': one2((v, f) => extreme(v, f, false)),
  'max_by/1': one2((v, f) => extreme(v, f, true)),
  'reverse/0': one((v) =>
    typeof v === 'string' ? [...v].reverse().join('') : v === null ? [] : [...needArray(v, 'reversed')].reverse(),
  ),
  'first/0': one((v) => iterate(needArray(v, 'indexed'))[0] ?? null),
  'last/0': one((v) => needArray(v, 'indexed').at(-1) ?? null),
  'first/1': function* (v, [f]) {
    for (const x of f!(v)) {
      yield x;
      return;
    }
  },
  'last/1': function* (v, [f]) {
    const outputs = all(f!, v);
    if (outputs.length > 0) yield outputs[outputs.length - 1]!;
  },
  'limit/2': function* (v, [n, f]) {
    for (const count of n!(v)) {
      if (typeof count !== 'number' || count <= 0) continue;
      let given = 0;
      for (const x of f!(v)) {
        yield x;
        if (++given >= count) break;
      }
    }
  },
  'range/1': function* (v, [n]) {
    for (const upto of n!(v)) for (let i = 0; i < (upto as number); i++) yield i;
  },
  'range/2': function* (v, [from, upto]) {
    for (const a of from!(v)) for (const b of upto!(v)) for (let i = a as number; i < (b as number); i++) yield i;
  },
  'any/0': one((v) => iterate(v).some(truthy)),
  'all/0': one((v) => iterate(v).every(truthy)),
  'any/1': one2((v, f) => iterate(v).some((x) => all(f, x).some(truthy))),
  'all/1': one2((v, f) => iterate(v).every((x) => all(f, x).every(truthy))),
  'flatten/0': one((v) => flatten(v, 1e9)),
  'flatten/1': withArg(flatten),
  'tostring/0': one((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  'tojson/0': one((v) => JSON.stringify(v)),
  'fromjson/0': one((v) => {
    try {
      return JSON.parse(needString(v, 'only strings can be parsed')) as Json;
    } catch {
      throw new JqRuntimeError(`${described(v)} is not valid JSON`);
    }
  }),
  'tonumber/0': one(toNumber),
  'ascii_downcase/0': one((v) => needString(v, 'cannot be lowercased').replace(/[A-Z]/g, (c) => c.toLowerCase())),
  'ascii_upcase/0': one((v) => needString(v, 'cannot be uppercased').replace(/[a-z]/g, (c) => c.toUpperCase())),
  'startswith/1': withArg((v, s) =>
    typeof v === 'string' && typeof s === 'string' ? v.startsWith(s) : fail('startswith() requires string inputs'),
  ),
  'endswith/1': withArg((v, s) =>
    typeof v === 'string' && typeof s === 'string' ? v.endsWith(s) : fail('endswith() requires string inputs'),
  ),
  'ltrimstr/1': withArg((v, s) =>
    typeof v === 'string' && typeof s === 'string' && v.startsWith(s) ? v.slice(s.length) : v,
  ),
  'rtrimstr/1': withArg((v, s) =>
    typeof v === 'string' && typeof s === 'string' && v.endsWith(s) && s !== '' ? v.slice(0, -s.length) : v,
  ),
  'split/1': withArg((v, s) =>
    typeof v === 'string' && typeof s === 'string'
      ? arithmetic('/', v, s)
      : fail('split input and separator must be strings'),
  ),
  'floor/0': one((v) => Math.floor(needNumber(v))),
  'ceil/0': one((v) => Math.ceil(needNumber(v))),
  'round/0': one((v) => Math.round(needNumber(v))),
  'sqrt/0': one((v) => Math.sqrt(needNumber(v))),
  'error/1': (v, [f]) => {
    for (const message of f!(v))
      throw new JqRuntimeError(typeof message === 'string' ? message : JSON.stringify(message));
    return [];
  },
  '@json/0': one((v) => JSON.stringify(v)),
  '@text/0': one((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  '@csv/0': one((v) =>
    row(v, '@csv', (x) => (typeof x === 'string' ? `"${x.replace(/"/g, '""')}"` : JSON.stringify(x)), ','),
  ),
  '@tsv/0': one((v) =>
    row(
      v,
      '@tsv',
      (x) =>
        typeof x === 'string'
          ? x.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
          : JSON.stringify(x),
      '\t',
    ),
  ),
  '@base64/0': one((v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64')),
};
for (const [name, test] of Object.entries(TYPES))
  BUILTINS[`${name}/0`] = function* (v) {
    if (test(v)) yield v;
  };
BUILTINS['recurse/0'] = (v) => BUILTINS['recurse/1']!(v, [(x) => (Array.isArray(x) || isObject(x) ? iterate(x) : [])]);

/** A builtin of one filter argument that yields one value from the input and that filter. */
function one2(f: (v: Json, arg: Filter) => Json): Builtin {
  return function* (v, [arg]) {
    yield f(v, arg!);
  };
}

/** The function `name` of `arity` arguments, or the refusal naming it. */
export function builtin(name: string, arity: number): Builtin {
  const fn = BUILTINS[`${name}/${arity}`];
  if (fn) return fn;
  const other = Object.keys(BUILTINS).find((k) => k.startsWith(`${name}/`));
  throw new JqSyntaxError(`${name}/${arity} is not supported${other ? ` (${other} is)` : ''}`);
}
