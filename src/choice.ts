/**
 * The one rule for a value that must be one of a few names (a flag's choices, a resource field's
 * enum): case does not matter, the value is returned as the list spells it, and anything else is
 * refused naming the input and every allowed value, with the nearest one as "did you mean".
 */
import { UsageError } from './errors.js';
import { closest } from './closest.js';

const fold = (s: string) => s.toLowerCase().replace(/-/g, '_');

/** The choice nearest to a mistyped value (case and `-`/`_` aside), when close enough to be a typo. */
function nearestChoice(value: string, choices: readonly string[]): string | undefined {
  return closest(value.trim(), choices, Math.max(2, Math.floor(value.trim().length / 2)), fold);
}

/** The refusal of `value` for `input` (`--state`), naming the allowed values and the nearest one. */
function choiceError(input: string, value: string, choices: readonly string[]): UsageError {
  const near = nearestChoice(value, choices);
  return new UsageError(
    `${input} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}${near ? ` (did you mean ${near}?)` : ''}`,
    { input, reason: 'NOT_A_CHOICE' },
  );
}

/** `value` as `choices` spells it (`frozen` → FROZEN); a UsageError naming `input` otherwise. */
export function parseChoice<C extends string>(value: string, choices: readonly C[], input: string): C {
  const text = value.trim();
  const found = choices.find((c) => c === text) ?? choices.find((c) => c.toLowerCase() === text.toLowerCase());
  if (found === undefined) throw choiceError(input, value, choices);
  return found;
}

/** A comma-separated list (or the values of a repeated flag), each item as parseChoice reads it. */
export function parseChoiceList<C extends string>(
  value: string | readonly string[],
  choices: readonly C[],
  input: string,
): C[] {
  const items = (typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(',')))
    .map((s) => s.trim())
    .filter(Boolean);
  return items.map((item) => parseChoice(item, choices, input));
}
