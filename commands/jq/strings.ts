/** jq's string literals: JSON escapes, and `\\(f)` replaced by f's outputs (strings raw, the rest as JSON). */
import type { Filter } from './builtins.js';
import { product } from './combinators.js';
import { JqSyntaxError } from './errors.js';
import { closingParen } from './lexer.js';
import type { Json } from './values.js';

const constant = (value: Json): Filter =>
  function* () {
    yield value;
  };

/** `"text \(f) text"`: one string per combination of the interpolated outputs. */
export function interpolated(token: string, parse: (expr: string) => Filter): Filter {
  const parts: Filter[] = [];
  let text = '';
  const flushText = () => {
    if (text === '') return;
    let value: string;
    try {
      value = JSON.parse(`"${text}"`) as string;
    } catch {
      throw new JqSyntaxError(`bad escape in the string ${token}`);
    }
    parts.push(constant(value));
    text = '';
  };
  const body = token.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && body[i + 1] === '(') {
      flushText();
      const close = closingParen(body, i + 1);
      const inner = parse(body.slice(i + 2, close));
      parts.push(function* (v) {
        for (const x of inner(v)) yield typeof x === 'string' ? x : JSON.stringify(x);
      });
      i = close;
    } else if (body[i] === '\\') {
      text += body[i]! + (body[i + 1] ?? '');
      i++;
    } else text += body[i];
  }
  flushText();
  if (parts.length === 0) return constant('');
  return function* (v) {
    for (const pieces of product(parts, v)) yield pieces.join('');
  };
}
