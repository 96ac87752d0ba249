/**
 * --jq's tokens. Strings are scanned by stringEnd (they may hold `\( … )` with quotes of their own);
 * everything else by one pattern. A token keeps where it starts, so a refusal can point at it.
 */
import { JqSyntaxError } from './errors.js';

export interface Token {
  text: string;
  at: number;
}

const TOKEN = new RegExp(
  [
    /\?\/\/|\.\.|\/\/=|\/\/|\|=|\+=|-=|\*=|\/=|%=|==|!=|<=|>=/.source,
    /\.[A-Za-z_][A-Za-z0-9_]*/.source, // .field
    /\$[A-Za-z_][A-Za-z0-9_]*/.source, // $variable
    /@[A-Za-z0-9_]+/.source, // @format
    /\d+(?:\.\d*)?(?:[eE][+-]?\d+)?/.source,
    /[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*/.source,
    /[.[\]{}()|,:;?<>=+\-*/%]/.source,
  ].join('|'),
  'y',
);

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
    const close = closingParen(expr, i + 1);
    if (close < 0) return -1;
    i = close;
  }
  return -1;
}

/** The index of the parenthesis closing the one at `open`, stepping over strings; -1 when none does. */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

export function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < expr.length) {
    const ch = expr[at]!;
    if (/\s/.test(ch)) {
      at++;
      continue;
    }
    if (ch === '#') {
      // A comment runs to the end of the line.
      while (at < expr.length && expr[at] !== '\n') at++;
      continue;
    }
    if (ch === '"') {
      const end = stringEnd(expr, at);
      if (end < 0) throw new JqSyntaxError('a string that never closes');
      tokens.push({ text: expr.slice(at, end), at });
      at = end;
      continue;
    }
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(expr);
    if (!m) throw new JqSyntaxError(`unexpected ${JSON.stringify(expr.slice(at, at + 10))}`);
    tokens.push({ text: m[0], at });
    at = TOKEN.lastIndex;
  }
  return tokens;
}
