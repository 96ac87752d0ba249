/**
 * Compiles a --jq expression into a filter, jq's grammar by precedence from the loosest: `|`, `,`,
 * `//`, `or`, `and`, comparisons, `+ -`, `* / %`, unary minus, then a term with its suffixes
 * (`.a`, `[i]`, `[]`, `[i:j]`, `?`). A filter maps one input to a stream of outputs, as in jq.
 * What jq has and this subset does not (variables, definitions, reduce, regular expressions, paths
 * assignment) is refused by name.
 */
import { JqRuntimeError, JqSyntaxError } from './errors.js';
import { builtin, type Filter } from './builtins.js';
import { ASSIGN, attempt, KEYWORDS, operator, product, recurse } from './combinators.js';
import { type Token, tokenize } from './lexer.js';
import { interpolated } from './strings.js';
import { index, iterate, type Json, type JsonObject, slice, truthy } from './values.js';

export type { Filter };

export function parse(expr: string): Filter {
  const tokens: Token[] = tokenize(expr);
  let pos = 0;
  const peek = (ahead = 0) => tokens[pos + ahead]?.text;
  const take = (want?: string): string => {
    const t = tokens[pos]?.text;
    if (t === undefined) throw new JqSyntaxError(want ? `expected ${want} at the end` : 'unexpected end');
    if (want !== undefined && t !== want) throw new JqSyntaxError(`expected ${want} before ${JSON.stringify(t)}`);
    pos++;
    return t;
  };
  const unsupported = (what: string): never => {
    throw new JqSyntaxError(`${what} is not supported`);
  };

  const pipe = (): Filter => {
    const left = comma();
    if (peek() === 'as') unsupported(KEYWORDS.as!);
    if (peek() !== '|') return left;
    take();
    const right = pipe();
    return function* (v) {
      for (const x of left(v)) yield* right(x);
    };
  };
  const comma = (): Filter => {
    let left = alternative();
    while (peek() === ',') {
      take();
      const [l, r] = [left, alternative()];
      left = function* (v) {
        yield* l(v);
        yield* r(v);
      };
    }
    return left;
  };
  const alternative = (): Filter => {
    const left = binary(0);
    const op = peek();
    if (op !== undefined && ASSIGN.has(op)) unsupported(`assignment (${op})`);
    if (op === '?//') unsupported('destructuring alternatives (?//)');
    if (op !== '//') return left;
    take();
    const right = alternative();
    return function* (v) {
      let any = false;
      for (const x of attempt(left, v))
        if (truthy(x)) {
          any = true;
          yield x;
        }
      if (!any) yield* right(v);
    };
  };
  const LEVELS = [['or'], ['and'], ['==', '!=', '<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];
  const binary = (level: number): Filter => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level]!.includes(peek() ?? '')) {
      const op = take();
      const [l, r] = [left, binary(level + 1)];
      left = operator(op, l, r);
      if (level === 2 && LEVELS[2]!.includes(peek() ?? ''))
        throw new JqSyntaxError(`chained comparison ${op} ${peek()}`);
    }
    return left;
  };
  const unary = (): Filter => {
    if (peek() !== '-') return postfix(term());
    take();
    const inner = postfix(term());
    return function* (v) {
      for (const x of inner(v)) {
        if (typeof x !== 'number') throw new JqRuntimeError(`${JSON.stringify(x)} cannot be negated`);
        yield -x;
      }
    };
  };

  const term = (): Filter => {
    const t = take();
    if (t === '.') {
      if (peek()?.startsWith('"')) return field(stringLiteral(take()));
      return function* (v) {
        yield v;
      };
    }
    if (t === '..') return recurse;
    if (t.startsWith('.')) return field(constant(t.slice(1)));
    if (t.startsWith('"')) return stringLiteral(t);
    if (/^\d/.test(t)) return constant(Number(t));
    if (t === '(') {
      const inner = pipe();
      take(')');
      return inner;
    }
    if (t === '[') {
      if (peek() === ']') {
        take();
        return constant([]);
      }
      const inner = pipe();
      take(']');
      return function* (v) {
        yield [...inner(v)];
      };
    }
    if (t === '{') return object();
    if (t === 'if') return conditional();
    if (t.startsWith('$')) return unsupported(`variables (${t})`);
    if (t.startsWith('@')) return format(t);
    if (KEYWORDS[t]) return unsupported(KEYWORDS[t]);
    if (['then', 'elif', 'else', 'end', 'and', 'or'].includes(t)) throw new JqSyntaxError(`unexpected ${t}`);
    if (/^[A-Za-z_]/.test(t)) return call(t);
    throw new JqSyntaxError(`unexpected ${JSON.stringify(t)}`);
  };

  const constant = (value: Json): Filter =>
    function* () {
      yield value;
    };
  const field = (key: Filter): Filter =>
    function* (v) {
      for (const k of key(v)) yield index(v, k);
    };

  const format = (name: string): Filter => {
    if (peek()?.startsWith('"')) unsupported(`format strings (${name} "…")`);
    const fn = builtin(name, 0);
    return (v) => fn(v, []);
  };
  const call = (name: string): Filter => {
    const args: Filter[] = [];
    if (peek() === '(') {
      take();
      args.push(pipe());
      while (peek() === ';') {
        take();
        args.push(pipe());
      }
      take(')');
    }
    if (name.includes('::')) unsupported(`modules (${name})`);
    if (args.length === 0 && (name === 'true' || name === 'false' || name === 'null'))
      return constant(JSON.parse(name));
    const fn = builtin(name, args.length); // an unknown name or arity is refused now, not on the output
    return (v) => fn(v, args);
  };

  const stringLiteral = (token: string): Filter => interpolated(token, parse);

  /** `{a, "b": f, (k): f, $x}`: one object per combination of the keys' and values' outputs. */
  const object = (): Filter => {
    const entries: [Filter, Filter][] = [];
    while (peek() !== '}') {
      const k = take();
      let key: Filter;
      if (k === '(') {
        key = pipe();
        take(')');
      } else if (k.startsWith('"')) key = stringLiteral(k);
      else if (k.startsWith('$')) return unsupported(`variables (${k})`);
      else if (/^[A-Za-z_]/.test(k)) key = constant(k);
      else throw new JqSyntaxError(`unexpected ${JSON.stringify(k)} in an object`);
      let value: Filter;
      if (peek() === ':') {
        take();
        value = objectValue();
      } else value = (v) => [...key(v)].map((name) => index(v, name));
      entries.push([key, value]);
      if (peek() !== '}') take(',');
    }
    take('}');
    const parts = entries.flat();
    return function* (v) {
      for (const values of product(parts, v)) {
        const out: JsonObject = {};
        for (let i = 0; i < values.length; i += 2) {
          const name = values[i]!;
          if (typeof name !== 'string')
            throw new JqRuntimeError(`Object keys must be strings, not ${JSON.stringify(name)}`);
          out[name] = values[i + 1]!;
        }
        yield out;
      }
    };
  };
  /** An object's value: terms joined by `|` (as jq's grammar has it: `{a: .b | length}`, not `{a: 1 + 2}`). */
  const objectValue = (): Filter => {
    const left = unary();
    if (peek() !== '|') return left;
    take();
    const right = objectValue();
    return function* (v) {
      for (const x of left(v)) yield* right(x);
    };
  };

  const conditional = (): Filter => {
    const condition = pipe();
    take('then');
    const then = pipe();
    let otherwise: Filter;
    const next = take();
    if (next === 'elif') otherwise = conditional();
    else if (next === 'else') {
      otherwise = pipe();
      take('end');
    } else if (next === 'end') otherwise = (v) => [v];
    else throw new JqSyntaxError(`expected elif, else or end before ${JSON.stringify(next)}`);
    return function* (v) {
      for (const c of condition(v)) yield* truthy(c) ? then(v) : otherwise(v);
    };
  };

  const postfix = (base: Filter): Filter => {
    let f = base;
    for (;;) {
      const t = peek();
      const prev = f;
      if (t === '?') {
        take();
        f = (v) => attempt(prev, v);
      } else if (t !== undefined && /^\.[A-Za-z_]/.test(t)) {
        take();
        const k = field(constant(t.slice(1)));
        f = function* (v) {
          for (const x of prev(v)) yield* k(x);
        };
      } else if (t === '.' && peek(1)?.startsWith('"')) {
        take();
        const k = field(stringLiteral(take()));
        f = function* (v) {
          for (const x of prev(v)) yield* k(x);
        };
      } else if (t === '[' || (t === '.' && peek(1) === '[')) {
        if (t === '.') take();
        const suffix = bracket();
        f = function* (v) {
          for (const x of prev(v)) yield* suffix(x, v);
        };
      } else return f;
    }
  };
  /** `[]`, `[i]` or `[i:j]` after a term: applied to the term's output, the index computed from the input. */
  const bracket = (): ((x: Json, input: Json) => Iterable<Json>) => {
    take('[');
    if (peek() === ']') {
      take();
      return (x) => iterate(x);
    }
    const from = peek() === ':' ? constant(null) : pipe();
    if (peek() === ':') {
      take();
      const to = peek() === ']' ? constant(null) : pipe();
      take(']');
      return function* (x, input) {
        for (const j of to(input)) for (const i of from(input)) yield slice(x, i, j);
      };
    }
    take(']');
    return function* (x, input) {
      for (const k of from(input)) yield index(x, k);
    };
  };

  const filter = pipe();
  if (pos !== tokens.length) throw new JqSyntaxError(`unexpected ${JSON.stringify(peek())}`);
  return filter;
}
