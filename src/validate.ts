/**
 * Input checks run before any request, so bad input exits 2 with the field named and nothing sent.
 * Each check returns the value (normalised where that is safe) or throws UsageError.
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
    throw new UsageError(`${field} is required: ${article(kind)} ${kind} identifier like ${kind}:<uuid>.`, {
      input: field,
    });
  }
  if (!idPattern(kind).test(value)) {
    throw new UsageError(`${field} must be ${article(kind)} ${kind} identifier like ${kind}:<uuid>; got "${value}".`, {
      input: field,
    });
  }
  return value;
}

/** A whole number within [min, max], given as a flag string or number. */
export function requireInteger(value: unknown, field: string, range: { min: number; max: number }): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d+$/.test(text)) {
    throw new UsageError(
      `${field} must be a whole number in the smallest currency unit (e.g. 1000 for 10.00); got "${String(value ?? '')}".`,
      { input: field },
    );
  }
  const n = Number(text);
  // Name only the bound that was crossed: "between 1 and 9007199254740991" reads as noise for -5.
  if (n < range.min) throw new UsageError(`${field} must be at least ${range.min}; got ${text}.`, { input: field });
  if (!Number.isSafeInteger(n) || n > range.max)
    throw new UsageError(`${field} must be at most ${range.max}; got ${text}.`, { input: field });
  return n;
}

/** ISO 4217-style three-letter code; upper-cased. */
export function requireCurrency(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) {
    throw new UsageError(`${field} must be a three-letter currency code such as USD; got "${String(value ?? '')}".`, {
      input: field,
    });
  }
  return value.toUpperCase();
}

export function requireUmaAddress(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UMA_ADDRESS_PATTERN.test(value)) {
    throw new UsageError(`${field} must be a UMA address like $alice@example.com; got "${String(value ?? '')}".`, {
      input: field,
    });
  }
  return value;
}
