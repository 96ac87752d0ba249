/**
 * `--jq <expr>`: the subset of jq that scripts use on svc's --json output, as gh's --jq does:
 * paths (`.data[0].id`, `.["key"]`, `.[]`, `.a?`), `|`, `,`, `==`/`!=`, `select(…)`, `length`,
 * `keys`, parentheses and JSON literals. Each result prints on its own line; strings print raw.
 * Small and dependency-free on purpose (the jq ports on npm are unmaintained or emscripten builds);
 * anything outside the subset is a usage error naming --jq, reported before any request.
 */
import { UsageError } from '../src/errors.js';

type Filter = (input: unknown) => unknown[];

const TOKEN = /\s*(\.\.|==|!=|\.|\[|\]|\(|\)|\||,|\?|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*)/y;

function tokenize(expr: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(expr);
    if (!m) throw bad(expr, `unexpected ${JSON.stringify(expr.slice(at, at + 10))}`);
    tokens.push(m[1]!);
  }
  return tokens;
}

function bad(expr: string, why: string): UsageError {
  return new UsageError(`--jq ${JSON.stringify(expr)}: ${why}`, {
    field: '--jq',
    hint: 'Supported: paths (.a.b, .[0], .[], .["k"]), |, ",", ==, !=, select(…), length, keys, ( ) and literals.',
  });
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function index(value: unknown, key: string | number, optional: boolean, expr: string): unknown[] {
  if (value === null || value === undefined) return [null];
  if (typeof key === 'number' && Array.isArray(value)) return [value[key < 0 ? value.length + key : key] ?? null];
  if (typeof key === 'string' && typeof value === 'object' && !Array.isArray(value))
    return [(value as Record<string, unknown>)[key] ?? null];
  if (optional) return [];
  throw new UsageError(`--jq ${JSON.stringify(expr)}: cannot index ${typeName(value)} with ${JSON.stringify(key)}`, {
    field: '--jq',
  });
}

function iterate(value: unknown, optional: boolean, expr: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  if (optional) return [];
  throw new UsageError(`--jq ${JSON.stringify(expr)}: cannot iterate over ${typeName(value)}`, { field: '--jq' });
}

export function compileJq(expr: string): Filter {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (want?: string) => {
    const t = tokens[pos];
    if (t === undefined || (want !== undefined && t !== want))
      throw bad(expr, want ? `expected ${want}` : 'unexpected end');
    pos++;
    return t;
  };

  const pipe = (): Filter => {
    let left = comma();
    while (peek() === '|') {
      take();
      const l = left;
      const r = comma();
      left = (v) => l(v).flatMap(r);
    }
    return left;
  };
  const comma = (): Filter => {
    const parts = [compare()];
    while (peek() === ',') {
      take();
      parts.push(compare());
    }
    return parts.length === 1 ? parts[0]! : (v) => parts.flatMap((p) => p(v));
  };
  const compare = (): Filter => {
    const left = postfix(term());
    const op = peek();
    if (op !== '==' && op !== '!=') return left;
    take();
    const right = postfix(term());
    return (v) =>
      left(v).flatMap((a) => right(v).map((b) => (JSON.stringify(a) === JSON.stringify(b)) === (op === '==')));
  };
  const term = (): Filter => {
    const t = take();
    if (t === '.') {
      const next = peek();
      if (next !== undefined && /^[A-Za-z_"]/.test(next)) return key(take());
      return (v) => [v];
    }
    if (t === '(') {
      const inner = pipe();
      take(')');
      return inner;
    }
    if (t.startsWith('"')) return literal(JSON.parse(t));
    if (/^-?\d/.test(t)) return literal(Number(t));
    if (t === 'true' || t === 'false' || t === 'null') return literal(JSON.parse(t));
    if (t === 'length')
      return (v) => [
        Array.isArray(v) || typeof v === 'string'
          ? v.length
          : v !== null && typeof v === 'object'
            ? Object.keys(v).length
            : v === null
              ? 0
              : Math.abs(Number(v)),
      ];
    if (t === 'keys')
      return (v) => [
        v !== null && typeof v === 'object' ? (Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v).sort()) : [],
      ];
    if (t === 'select') {
      take('(');
      const condition = pipe();
      take(')');
      return (v) => (condition(v).some((c) => c !== false && c !== null) ? [v] : []);
    }
    throw bad(expr, `unsupported ${JSON.stringify(t)}`);
  };
  const literal =
    (value: unknown): Filter =>
    () => [value];
  const key = (token: string): Filter => {
    const name = token.startsWith('"') ? (JSON.parse(token) as string) : token;
    const optional = optionalMark();
    return (v) => index(v, name, optional, expr);
  };
  const optionalMark = () => (peek() === '?' ? (take(), true) : false);
  const postfix = (base: Filter): Filter => {
    let f = base;
    for (;;) {
      const t = peek();
      if (t === '.' && tokens[pos + 1] !== undefined && /^[A-Za-z_"]/.test(tokens[pos + 1]!)) {
        take();
        const k = key(take());
        const prev = f;
        f = (v) => prev(v).flatMap(k);
      } else if (t === '[') {
        take();
        const prev = f;
        if (peek() === ']') {
          take();
          const optional = optionalMark();
          f = (v) => prev(v).flatMap((x) => iterate(x, optional, expr));
        } else {
          const k = take();
          take(']');
          const optional = optionalMark();
          const name: string | number = k.startsWith('"') ? (JSON.parse(k) as string) : Number(k);
          if (typeof name === 'number' && !Number.isInteger(name)) throw bad(expr, `bad index ${k}`);
          f = (v) => prev(v).flatMap((x) => index(x, name, optional, expr));
        }
      } else return f;
    }
  };

  const filter = pipe();
  if (pos !== tokens.length) throw bad(expr, `unexpected ${JSON.stringify(tokens[pos])}`);
  return filter;
}

/** The lines `--jq` prints for one JSON document: strings raw, everything else as compact JSON. */
export function jqLines(filter: Filter, value: unknown): string[] {
  return filter(value).map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
}
