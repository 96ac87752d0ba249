/** The one check for a flag that takes a whole number in a range (ports, counts, limits). */
import { UsageError } from '../src/errors.js';

/** `value` as an integer from min to max, or a UsageError naming `flag` and the range. */
export function integerFlag(value: string | number, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = String(value).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(String(value))}`, {
      field: flag,
    });
  }
  return n;
}
