/**
 * Flag checks shared by the sandbox verbs. Everything is checked before a connection is even
 * resolved, so bad input exits 2 naming the flag and no request leaves the machine.
 */
import { UsageError } from '../../src/errors.js';
import { requireInteger } from '../../src/validate.js';

/** A missing flag gets its own message: "must be a whole number; got ''" would not say what to pass. */
export function requirePresent(value: unknown, flag: string, example: string): void {
  if (value === undefined || value === null || value === '') {
    throw new UsageError(`${flag} is required, e.g. ${flag} ${example}`, { field: flag });
  }
}

/**
 * A positive amount in the smallest currency unit. Amounts without a documented ceiling still stop at
 * 2^53-1: beyond it a JSON number can no longer carry every digit.
 */
export function requireAmount(value: unknown, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  requirePresent(value, flag, '1000');
  return requireInteger(value, flag, { min: 1, max });
}
