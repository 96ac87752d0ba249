/** The parts of jq's grammar that combine filters: operators, `?`, products of outputs, `..`, and the refused keywords. */
import type { Filter } from './builtins.js';
import { JqRuntimeError } from './errors.js';
import { arithmetic, compare, isObject, iterate, type Json, truthy } from './values.js';

export const KEYWORDS: Record<string, string> = {
  as: 'variables (… as $x)',
  def: 'function definitions (def)',
  reduce: 'reduce',
  foreach: 'foreach',
  try: 'try … catch (use ? to skip errors)',
  catch: 'try … catch (use ? to skip errors)',
  label: 'label … break',
  import: 'modules (import)',
  include: 'modules (include)',
};
export const ASSIGN = new Set(['=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);

export function* recurse(v: Json): Generator<Json> {
  yield v;
  if (Array.isArray(v) || isObject(v)) for (const child of iterate(v)) yield* recurse(child);
}

/** Runs `f`, yielding its outputs up to its first jq error, which ends the stream quietly (`f?`). */
export function* attempt(f: Filter, v: Json): Generator<Json> {
  try {
    yield* f(v);
  } catch (error) {
    if (!(error instanceof JqRuntimeError)) throw error;
  }
}

/** Every combination of the outputs of `parts`, in jq's order (the last part varies slowest). */
export function* product(parts: Filter[], v: Json, at = parts.length - 1): Generator<Json[]> {
  if (at < 0) {
    yield [];
    return;
  }
  for (const last of parts[at]!(v)) for (const rest of product(parts, v, at - 1)) yield [...rest, last];
}

export function operator(op: string, l: Filter, r: Filter): Filter {
  if (op === 'and' || op === 'or')
    return function* (v) {
      for (const a of l(v)) {
        if (truthy(a) === (op === 'or')) yield op === 'or';
        else for (const b of r(v)) yield truthy(b);
      }
    };
  const apply = (a: Json, b: Json): Json => {
    if (op === '==') return compare(a, b) === 0;
    if (op === '!=') return compare(a, b) !== 0;
    if (op === '<') return compare(a, b) < 0;
    if (op === '<=') return compare(a, b) <= 0;
    if (op === '>') return compare(a, b) > 0;
    if (op === '>=') return compare(a, b) >= 0;
    return arithmetic(op, a, b);
  };
  // jq evaluates the right side first and varies the left side fastest.
  return function* (v) {
    for (const b of r(v)) for (const a of l(v)) yield apply(a, b);
  };
}
