/**
 * Request-body validation that collects every bad field before answering, because the spec says
 * field-validation errors list every invalid field in one response (400 INVALID_INPUT,
 * details.errors[] of FieldError). Unknown fields are ignored (field sets are additive).
 *
 * Every string has a length limit: its own `maxLength`, else TEXT_MAX_LENGTH. A value stored whole
 * must not be able to grow the --state file without bound (every later write rewrites it whole,
 * test/chaos/free-text.test.ts), and a pattern is never run on a megabyte. Fields that legitimately run longer (tokens, attestations) declare their own maxLength.
 */
import type { FieldConstraint, FieldError } from '../../errors.js';
import { CLIENT_PUBLIC_KEY_PATTERN, validateClientPublicKey } from '../../crypto/keys.js';
import { invalidInput } from './errors.js';
import { FORMAT_HINTS, FORMATS } from './request-check/formats.js';

/**
 * The spec's clientPublicKey rule, plus the point check: a key that matches the pattern but is not
 * on P-256 cannot be sealed to or verified with, so it is bad input (400), not an internal error.
 */
export const CLIENT_PUBLIC_KEY_RULES = {
  pattern: CLIENT_PUBLIC_KEY_PATTERN,
  check(value: string): string | undefined {
    try {
      validateClientPublicKey(value);
      return undefined;
    } catch {
      return 'clientPublicKey is not a point on the P-256 curve';
    }
  },
} as const;

interface StringRules {
  required?: boolean;
  pattern?: RegExp;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  /**
   * A named format (the spec's FieldConstraint slugs). One the emulator can check (request-check/
   * formats.ts: date, date-time, email, uri, uuid, iso3166-1-alpha-2) is enforced; any other
   * (e.164, us-ssn) only names the pattern given with it.
   */
  format?: string;
  /** Extra check after the shape passed; returns a message when the value is wrong. */
  check?: (value: string) => string | undefined;
}

function constraintOf(rules: StringRules): FieldConstraint | undefined {
  const c: FieldConstraint = {};
  if (rules.pattern) c.pattern = rules.pattern.source;
  if (rules.enum) c.enum = [...rules.enum];
  if (rules.minLength !== undefined) c.minLength = rules.minLength;
  if (rules.maxLength !== undefined) c.maxLength = rules.maxLength;
  if (rules.format) c.format = rules.format;
  return Object.keys(c).length > 0 ? c : undefined;
}

/** The limit of a string that names none: far above any name, reference or note. */
export const TEXT_MAX_LENGTH = 1024;

/** `url` is the spec's HTML5 name for what the description calls `uri`. */
const formatCheck = (format: string) => FORMATS[format === 'url' ? 'uri' : format];

/** Reads fields of one JSON object; nested objects share the error list with their parent. */
export class Fields {
  readonly errors: FieldError[];
  private readonly body: Record<string, unknown>;
  private readonly prefix: string;

  constructor(body: Record<string, unknown>, prefix = '', errors: FieldError[] = []) {
    this.body = body;
    this.prefix = prefix;
    this.errors = errors;
  }

  path(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  add(name: string, message: string, constraint?: FieldConstraint): void {
    this.errors.push(
      constraint ? { field: this.path(name), constraint, message } : { field: this.path(name), message },
    );
  }

  has(name: string): boolean {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  private missing(name: string, required: boolean | undefined, constraint?: FieldConstraint): boolean {
    if (this.has(name)) return false;
    if (required) this.add(name, `${this.path(name)} is required`, constraint);
    return true;
  }

  /**
   * A string field. Nothing is allocated for a field that is valid or absent (the rules' constraint
   * is made only for an error): this runs for every field of every request, and per-call objects
   * outlive their requests in the old generation, RSS that only a full GC gives back
   * (test/bench/growth.mjs).
   */
  string(name: string, given: StringRules = {}): string | undefined {
    if (!this.has(name)) {
      if (given.required) this.add(name, `${this.path(name)} is required`, constraintOf(given));
      return undefined;
    }
    const value = this.body[name];
    if (typeof value !== 'string') {
      this.add(name, `${this.path(name)} must be a string`, constraintOf(given));
      return undefined;
    }
    const maxLength = given.maxLength ?? (given.enum ? undefined : TEXT_MAX_LENGTH);
    let problem: string | undefined;
    if (given.minLength !== undefined && value.length < given.minLength)
      problem = `${this.path(name)} must be at least ${given.minLength} characters`;
    else if (maxLength !== undefined && value.length > maxLength) {
      // The default limit is named only to a value that broke it: the field's own constraint stays as declared.
      this.add(name, `${this.path(name)} must be at most ${maxLength} characters`, {
        ...constraintOf(given),
        maxLength,
      });
      return undefined;
    } else if (given.enum && !given.enum.includes(value))
      problem = `${this.path(name)} must be one of ${given.enum.join(', ')}`;
    else if (given.pattern && !given.pattern.test(value))
      problem = `${this.path(name)} must match ${given.pattern.source}`;
    else if (given.format && formatCheck(given.format)?.(value) === false)
      problem = `${this.path(name)} must be ${FORMAT_HINTS[given.format === 'url' ? 'uri' : given.format]}`;
    else if (given.check) problem = given.check(value);
    if (!problem) return value;
    this.add(name, problem, constraintOf(given));
    return undefined;
  }

  integer(name: string, rules: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (this.missing(name, rules.required)) return undefined;
    const value = this.body[name];
    const field = this.path(name);
    const range = `between ${rules.min ?? Number.MIN_SAFE_INTEGER} and ${rules.max ?? Number.MAX_SAFE_INTEGER}`;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.add(name, `${field} must be an integer ${range}`);
      return undefined;
    }
    if ((rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max)) {
      this.add(name, `${field} must be ${range}`);
      return undefined;
    }
    return value;
  }

  boolean(name: string, rules: { required?: boolean } = {}): boolean | undefined {
    if (this.missing(name, rules.required)) return undefined;
    const value = this.body[name];
    if (typeof value !== 'boolean') {
      this.add(name, `${this.path(name)} must be true or false`);
      return undefined;
    }
    return value;
  }

  /** An array of distinct strings, each checked against pattern or enum. */
  stringArray(
    name: string,
    rules: {
      required?: boolean;
      pattern?: RegExp;
      enum?: readonly string[];
      minItems?: number;
      maxItems?: number;
    } = {},
  ): string[] | undefined {
    const constraint = rules.pattern
      ? { pattern: rules.pattern.source }
      : rules.enum
        ? { enum: [...rules.enum] }
        : undefined;
    if (this.missing(name, rules.required, constraint)) return undefined;
    const value = this.body[name];
    const field = this.path(name);
    if (!Array.isArray(value)) {
      this.add(name, `${field} must be an array of strings`, constraint);
      return undefined;
    }
    const before = this.errors.length;
    if (rules.minItems !== undefined && value.length < rules.minItems)
      this.add(name, `${field} must hold at least ${rules.minItems} item(s)`);
    if (rules.maxItems !== undefined && value.length > rules.maxItems)
      this.add(name, `${field} must hold at most ${rules.maxItems} items`);
    const seen = new Set<string>();
    value.forEach((item, i) => {
      const at = `${name}[${i}]`;
      if (typeof item !== 'string') this.add(at, `${this.path(at)} must be a string`, constraint);
      else if (rules.pattern && !rules.pattern.test(item))
        this.add(at, `${this.path(at)} must match ${rules.pattern.source}`, constraint);
      else if (rules.enum && !rules.enum.includes(item))
        this.add(at, `${this.path(at)} must be one of ${rules.enum.join(', ')}`, constraint);
      else if (seen.has(item)) this.add(at, `${this.path(at)} repeats ${item}`);
      else seen.add(item);
    });
    return this.errors.length === before ? (value as string[]) : undefined;
  }

  /** A nested object's fields (undefined when absent or not an object; the error is recorded). */
  object(name: string, rules: { required?: boolean } = {}): Fields | undefined {
    if (this.missing(name, rules.required)) return undefined;
    const value = this.body[name];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.add(name, `${this.path(name)} must be an object`);
      return undefined;
    }
    return new Fields(value as Record<string, unknown>, this.path(name), this.errors);
  }

  /** Throws 400 INVALID_INPUT with every collected error, if any. */
  done(): void {
    if (this.errors.length > 0) throw invalidInput(this.errors);
  }
}
