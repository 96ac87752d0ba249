/**
 * Flag checks shared by the sandbox verbs. Everything is checked before a connection is even
 * resolved, so bad input exits 2 naming the flag and no request leaves the machine.
 */
import { UsageError } from '../../src/errors.js';
import { requireCurrency, requireInteger, requireUmaAddress } from '../../src/validate.js';

/** A missing flag gets its own message: "must be a whole number; got ''" would not say what to pass. */
function requirePresent(value: unknown, flag: string, example: string): void {
  if (value === undefined || value === null || value === '') {
    throw new UsageError(`${flag} is required, e.g. ${flag} ${example}`, { input: flag });
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

export function requireCurrencyFlag(value: unknown, flag: string): string {
  requirePresent(value, flag, 'USD');
  return requireCurrency(value, flag);
}

export function requireUmaFlag(value: unknown, flag: string, example: string): string {
  requirePresent(value, flag, example);
  return requireUmaAddress(value, flag);
}

type Checks = Record<string, () => unknown>;

/**
 * Runs every check and returns the values by name. All bad flags are reported in one UsageError
 * (field lists them all), so a script author fixes them in one round instead of one per run.
 */
export function checkAll<C extends Checks>(checks: C): { [K in keyof C]: ReturnType<C[K]> } {
  const values: Record<string, unknown> = {};
  const refused: UsageError[] = [];
  for (const [name, check] of Object.entries(checks)) {
    try {
      values[name] = check();
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      refused.push(error.input === undefined ? new UsageError(error.message, { input: name }) : error);
    }
  }
  if (refused.length === 1) throw refused[0];
  if (refused.length > 1) {
    // The renderer says each problem after its own flag (UsageError.problems), one a line.
    const problems = refused.map((e) => ({ input: e.input!, reason: e.reason, message: e.message }));
    throw new UsageError(
      `${problems.length} inputs need fixing:\n${problems.map((p) => `  - ${p.input}: ${p.message}`).join('\n')}`,
      {
        input: problems.map((p) => p.input).join(', '),
        problems,
      },
    );
  }
  return values as { [K in keyof C]: ReturnType<C[K]> };
}
