/**
 * `--jq <expr>`: the subset of jq that scripts use on svc's --json output, as gh's --jq does:
 * paths (`.data[0].id`, `.["key"]`, `.[]`, `.a?`), `|`, `,`, `==`/`!=`, `select(…)`, `length`,
 * `keys`, parentheses, JSON literals and string interpolation (`"\\(.a)-\\(.b)"`). Each result prints on its
 * own line; strings print raw.
 * Small and dependency-free on purpose (the jq ports on npm are unmaintained or emscripten builds);
 * anything outside the subset is a usage error naming --jq, reported before any request.
 */
import { SvcError, UsageError } from '../src/errors.js';
import { JQ_SUBSET } from './jq-subset.js';

type Filter = (input: unknown) => unknown[];

// Strings are scanned by stringEnd (they may hold `\( … )` with quotes of their own), everything else here.
const TOKEN = /\s*(\.\.|==|!=|\.|\[|\]|\(|\)|\||,|\?|-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*)/y;

/** The index just past the string literal opening at `start`, or -1 when it never closes. */
function stringEnd(expr: string, start: number): number {
  for (let i = start + 1; i < expr.length; i++) {
    const ch = expr[i];
    if (ch === '"') return i + 1;
    if (ch !== '\\') continue;
    if (expr[i + 1] !== '(') {
      i++; // an escape: the next character is part of it
      continue;
    }
    // `\(expr)`: skip to the matching parenthesis, stepping over strings inside.
    let depth = 0;
    for (i += 1; i < expr.length; i++) {
      if (expr[i] === '"') {
        const end = stringEnd(expr, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (expr[i] === '(') depth++;
      else if (expr[i] === ')' && --depth === 0) break;
    }
  }
  return -1;
}

function tokenize(expr: string, whole = expr): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < expr.length) {
    while (/\s/.test(expr[at] ?? '')) at++;
    if (at >= expr.length) break;
    if (expr[at] === '"') {
      const end = stringEnd(expr, at);
      if (end < 0) throw bad(whole, 'a string that never closes');
      tokens.push(expr.slice(at, end));
      at = end;
      continue;
    }
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(expr);
    if (!m) throw bad(whole, `unexpected ${JSON.stringify(expr.slice(at, at + 10))}`);
    tokens.push(m[1]!);
    at = TOKEN.lastIndex;
  }
  return tokens;
}

function bad(expr: string, why: string): UsageError {
  return new UsageError(`--jq ${JSON.stringify(expr)}: ${why}`, {
    input: '--jq',
    hint: `Supported: ${JQ_SUBSET}.`,
  });
}

/**
 * A filter that does not fit the output is found only once the command has done its work (a payment
 * sent, a session stored): exit 1, not the 2 of input refused before any request.
 */
function outputMismatch(expr: string, why: string): SvcError {
  return new SvcError(`--jq ${JSON.stringify(expr)}: ${why}`, {
    hint: 'The command itself ran; only the filter failed on its output. Add ? to a path (.a?) to skip what is missing.',
  });
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function index(value: unknown, key: string | number, optional: boolean, expr: string): unknown[] {
  if (value === null || value === undefined) return [null];
  if (typeof key === 'number' && Array.isArray(value)) return [value[key < 0 ? value.length + key : key] ?? null];
  if (typeof key === 'string' && typeof value === 'object' && !Array.isArray(value))
    return [(value as Record<string, unknown>)[key] ?? null];
  if (optional) return [];
  throw outputMismatch(expr, `cannot index ${typeName(value)} with ${JSON.stringify(key)}`);
}

function iterate(value: unknown, optional: boolean, expr: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  if (optional) return [];
  throw outputMismatch(expr, `cannot iterate over ${typeName(value)}`);
}

/** The index of the parenthesis closing the one at `open`, stepping over strings (the token was scanned, so it exists). */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '"') i = stringEnd(text, i) - 1;
    else if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** Compiles `expr`; `whole` is the full --jq expression when expr is a part of it (errors name the whole). */
export function compileJq(expr: string, whole = expr): Filter {
  const tokens = tokenize(expr, whole);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (want?: string) => {
    const t = tokens[pos];
    if (t === undefined || (want !== undefined && t !== want))
      throw bad(whole, want ? `expected ${want}` : 'unexpected end');
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
    if (t.startsWith('"')) return stringTemplate(t);
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
    throw bad(whole, `unsupported ${JSON.stringify(t)}`);
  };
  const literal =
    (value: unknown): Filter =>
    () => [value];
  /** A string literal; each `\\(f)` in it is replaced by f's output (strings raw), one string per combination, as jq does. */
  const stringTemplate = (token: string): Filter => {
    const parts: Filter[] = [];
    let text = '';
    const flushText = () => {
      const raw = text;
      text = '';
      if (raw === '') return;
      let value: string;
      try {
        value = JSON.parse(`"${raw}"`) as string;
      } catch {
        throw bad(whole, `bad escape in the string ${token}`);
      }
      parts.push(literal(value));
    };
    const body = token.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\' && body[i + 1] === '(') {
        flushText();
        const closing = closingParen(body, i + 1);
        const inner = compileJq(body.slice(i + 2, closing), whole);
        parts.push((v) => inner(v).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
        i = closing;
      } else if (body[i] === '\\') {
        text += body[i]! + (body[i + 1] ?? '');
        i++;
      } else text += body[i];
    }
    flushText();
    return (v) =>
      parts.reduce<string[]>((acc, part) => acc.flatMap((prefix) => part(v).map((x) => prefix + String(x))), ['']);
  };
  const key = (token: string): Filter => {
    const name = token.startsWith('"') ? (JSON.parse(token) as string) : token;
    const optional = optionalMark();
    return (v) => index(v, name, optional, whole);
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
          f = (v) => prev(v).flatMap((x) => iterate(x, optional, whole));
        } else {
          const k = take();
          take(']');
          const optional = optionalMark();
          const name: string | number = k.startsWith('"') ? (JSON.parse(k) as string) : Number(k);
          if (typeof name === 'number' && !Number.isInteger(name)) throw bad(whole, `bad index ${k}`);
          f = (v) => prev(v).flatMap((x) => index(x, name, optional, whole));
        }
      } else return f;
    }
  };

  const filter = pipe();
  if (pos !== tokens.length) throw bad(whole, `unexpected ${JSON.stringify(tokens[pos])}`);
  return filter;
}

/** The lines `--jq` prints for one JSON document: strings raw, everything else as compact JSON. */
export function jqLines(filter: Filter, value: unknown): string[] {
  return filter(value).map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
}
