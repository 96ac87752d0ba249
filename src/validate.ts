/**
 * Input checks run before any request, so bad input exits 2 with the input named and nothing sent.
 * Each check returns the value (normalised where that is safe) or throws a UsageError whose `input`
 * is the caller's name for the value (`field`) and whose message is about the value alone.
 */
import { UsageError } from './errors.js';
import { UMA_ADDRESS_PATTERN, idPattern, type IdKind } from './service/identifiers.js';

export { UMA_ADDRESS_PATTERN, idPattern, type IdKind };

/** "an InternalAccount", "a Card": the article a message needs before a resource name. */
function article(kind: IdKind): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

export function requireId(kind: IdKind, value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(`Required: ${article(kind)} ${kind} identifier like ${kind}:<uuid>.`, {
      input: field,
      reason: 'MISSING',
    });
  }
  if (!idPattern(kind).test(value)) {
    throw new UsageError(`Expected ${article(kind)} ${kind} identifier like ${kind}:<uuid>; got "${value}".`, {
      input: field,
      reason: 'NOT_AN_ID',
    });
  }
  return value;
}

/** A whole number within [min, max], given as a flag string or number. */
export function requireInteger(value: unknown, field: string, range: { min: number; max: number }): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d+$/.test(text)) {
    throw new UsageError(
      `Expected a whole number in the smallest currency unit (e.g. 1000 for 10.00); got "${String(value ?? '')}".`,
      { input: field, reason: 'NOT_AN_INTEGER' },
    );
  }
  const n = Number(text);
  // Name only the bound that was crossed: "between 1 and 9007199254740991" reads as noise for -5.
  if (n < range.min)
    throw new UsageError(`Must be at least ${range.min}; got ${text}.`, { input: field, reason: 'TOO_SMALL' });
  if (!Number.isSafeInteger(n) || n > range.max)
    throw new UsageError(`Must be at most ${range.max}; got ${text}.`, { input: field, reason: 'TOO_LARGE' });
  return n;
}

/** ISO 4217-style three-letter code; upper-cased. */
export function requireCurrency(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) {
    throw new UsageError(`Expected a three-letter currency code such as USD; got "${String(value ?? '')}".`, {
      input: field,
      reason: 'NOT_A_CURRENCY',
    });
  }
  return value.toUpperCase();
}

export function requireUmaAddress(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UMA_ADDRESS_PATTERN.test(value)) {
    throw new UsageError(`Expected a UMA address like $alice@example.com; got "${String(value ?? '')}".`, {
      input: field,
      reason: 'NOT_A_UMA_ADDRESS',
    });
  }
  return value;
}
