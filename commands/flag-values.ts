/**
 * The check of the flags whose spec says what they take (`flag.choices`, `flag.integer`), run by
 * run-verb.ts before the verb's `run`: a bad value is a UsageError naming the flag and what it
 * takes (exit 2), and an integer reaches `run` as a number. Kept out of verb.ts, which the command
 * root loads, because the error class must be the verbs bundle's (run-verb.ts renders it).
 */
import { UsageError } from '../src/errors.js';
import { parseChoice, parseChoiceList } from '../src/choice.js';
import { longFlag, type Flag, type VerbSpec } from './verb.js';

function checked(f: Flag<unknown>, value: string | string[]): unknown {
  const name = longFlag(f.syntax);
  if (f.choices) {
    if (f.list) {
      const items = parseChoiceList(value, f.choices, name);
      return f.kind === 'repeatable' ? items : items.join(',');
    }
    if (Array.isArray(value)) return value.map((v) => parseChoice(v, f.choices!, name));
    return parseChoice(value, f.choices, name);
  }
  if (!f.integer || Array.isArray(value)) return value;
  const { min, max } = f.integer;
  const text = value.trim();
  const n = Number(text);
  const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new UsageError(`${name} must be an integer ${range}, got ${JSON.stringify(value)}`, { input: name });
  return n;
}

/** Every required flag left out, refused together: one run names them all, not one per run. */
function checkRequired(spec: VerbSpec, options: Record<string, unknown>): void {
  const missing = Object.entries(spec.flags ?? {})
    .filter(([key, f]) => f.required && options[key] === undefined)
    .map(([, f]) => f.syntax);
  if (missing.length === 0) return;
  const names = missing.map((syntax) => longFlag(syntax));
  throw new UsageError(`Missing required ${names.length === 1 ? 'flag' : 'flags'}: ${missing.join(', ')}.`, {
    input: names[0]!,
    problems: names.map((input, i) => ({ input, message: `${missing[i]} is required` })),
    hint: `Run with --help for the flags.`,
  });
}

/**
 * `options` with the required flags present and each given choices or integer flag checked: a
 * choice as its spec spells it, integers as numbers.
 */
export function checkFlagValues(spec: VerbSpec, options: Record<string, unknown>): Record<string, unknown> {
  checkRequired(spec, options);
  const out = { ...options };
  for (const [key, f] of Object.entries(spec.flags ?? {})) {
    const value = out[key];
    if ((f.choices || f.integer) && (typeof value === 'string' || Array.isArray(value)))
      out[key] = checked(f, value as string | string[]);
  }
  return out;
}
