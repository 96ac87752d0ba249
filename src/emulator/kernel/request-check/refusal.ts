/**
 * The generated validators' errors as the spec's refusal: one FieldError a failing field and rule
 * (its dot path, the rule, the allowed values, format or pattern as a FieldConstraint, and a
 * sentence), all in one 400 INVALID_INPUT whose message names every field.
 */
import type { FieldConstraint, FieldError } from '../../../errors.js';
import { type HttpError, invalidInput } from '../errors.js';
import type { SchemaError } from './generated/operations.js';
import { FORMAT_HINTS } from './formats.js';

/** Where the value was: the body (dot paths), or a parameter named as the description spells it. */
export interface Place {
  /** Prefix of the dot path (`''` for the body and for parameters). */
  prefix: string;
  /** Parameter names by the key they were validated under (headers are validated in lower case). */
  names?: ReadonlyMap<string, string>;
}

/** A message lists at most this many allowed values; the constraint lists them all. */
const LISTED_VALUES = 12;

/** `/accountInfo/owners/0/name` → `accountInfo.owners[0].name`. */
function dotPath(instancePath: string, place: Place, extra?: string): string {
  const segments = instancePath.split('/').slice(1);
  if (extra !== undefined) segments.push(extra);
  let out = place.prefix;
  for (const raw of segments) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(segment) && out !== '') out += `[${segment}]`;
    else {
      const named = out === '' ? (place.names?.get(segment) ?? segment) : segment;
      out = out === '' ? named : `${out}.${named}`;
    }
  }
  return out === '' ? 'body' : out;
}

const list = (values: readonly unknown[]) =>
  values.length > LISTED_VALUES
    ? `${values.slice(0, LISTED_VALUES).map(String).join(', ')}… (${values.length} values)`
    : values.map(String).join(', ');

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** The FieldError for one schema error, or undefined for errors that only carry others (if, oneOf branches). */
function fieldError(e: SchemaError, place: Place): FieldError | undefined {
  const p = e.params;
  switch (e.keyword) {
    case 'required': {
      const field = dotPath(e.instancePath, place, String(p.missingProperty));
      const others = ((p.alternatives as string[] | undefined) ?? []).filter((a) => a !== p.missingProperty);
      const or = others.map((a) => dotPath(e.instancePath, place, a)).join(' or ');
      return {
        field,
        rule: 'required',
        message: others.length ? `${field} (or ${or}) is required` : `${field} is required`,
      };
    }
    case 'additionalProperties': {
      const field = dotPath(e.instancePath, place, String(p.additionalProperty));
      return { field, rule: 'additionalProperties', message: `${field} is not a field this request takes` };
    }
    case 'if':
      return undefined;
  }
  const field = dotPath(e.instancePath, place);
  const say = (message: string, constraint?: FieldConstraint): FieldError =>
    constraint ? { field, rule: e.keyword, constraint, message } : { field, rule: e.keyword, message };
  switch (e.keyword) {
    case 'type': {
      const types = String(p.type).split(',');
      return say(`${field} must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`);
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]) ?? [];
      return say(`${field} must be one of ${list(allowed)}`, { enum: allowed.map(String) });
    }
    case 'const':
      return say(`${field} must be ${String(p.allowedValue)}`, { enum: [String(p.allowedValue)] });
    case 'format': {
      const format = String(p.format);
      return say(`${field} must be ${FORMAT_HINTS[format] ?? `in the format ${format}`}`, { format });
    }
    case 'pattern':
      return say(`${field} must match ${String(p.pattern)}`, { pattern: String(p.pattern) });
    case 'minLength':
      return say(`${field} must be at least ${String(p.limit)} characters`, { minLength: Number(p.limit) });
    case 'maxLength':
      return say(`${field} must be at most ${String(p.limit)} characters`, { maxLength: Number(p.limit) });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return say(`${field} must be ${String(p.comparison)} ${String(p.limit)}`);
    case 'multipleOf':
      return say(`${field} must be a multiple of ${String(p.multipleOf)}`);
    case 'minItems':
      return say(`${field} must hold at least ${String(p.limit)} item(s)`);
    case 'maxItems':
      return say(`${field} must hold at most ${String(p.limit)} item(s)`);
    case 'uniqueItems':
      return say(`${field} must not repeat an item (items ${String(p.j)} and ${String(p.i)} are equal)`);
    case 'minProperties':
    case 'maxProperties':
      return say(
        `${field} must have ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${String(p.limit)} field(s)`,
      );
    case 'oneOf':
    case 'anyOf':
      return say(
        `${field} must match ${e.keyword === 'oneOf' ? 'exactly one' : 'one'} of the shapes the API describes for it`,
      );
    case 'not':
      return say(`${field} has a value the API does not allow here`);
    default:
      return say(`${field} breaks the rule ${e.keyword}`);
  }
}

/**
 * Errors inside a failed oneOf/anyOf branch are the branches' own: the value matched none, and
 * which branch was meant is not known (a discriminated oneOf selects its branch first and never
 * gets here). Only the oneOf's own error is kept.
 */
function withoutBranches(errors: readonly SchemaError[]): SchemaError[] {
  const alternatives = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  if (alternatives.length === 0) return [...errors];
  const inside = (a: SchemaError, e: SchemaError) => e.schemaPath.startsWith(`${a.schemaPath}/`);
  const kept = errors.filter((e) => !alternatives.some((a) => inside(a, e)));
  // Alternatives that differ only in which field is there (`code` or `passkeyAssertion`): each is
  // named as required, the others in its message, instead of one vague error on the object.
  return kept.flatMap((e) => {
    if (!alternatives.includes(e)) return [e];
    const branches = errors.filter((b) => inside(e, b));
    if (branches.length === 0 || !branches.every((b) => b.keyword === 'required' && b.instancePath === e.instancePath))
      return [e];
    const names = [...new Set(branches.map((b) => String(b.params.missingProperty)))];
    return names.map((name) => ({ ...branches[0]!, params: { missingProperty: name, alternatives: names } }));
  });
}

/**
 * The FieldErrors of one validation, one a field: its first broken rule names the rule and says
 * why; the constraints of the others it broke (a type and an enum) are added to its constraint.
 */
export function fieldErrors(errors: readonly SchemaError[], place: Place): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const e of withoutBranches(errors)) {
    const f = fieldError(e, place);
    if (!f) continue;
    const first = byField.get(f.field);
    if (!first) byField.set(f.field, f);
    else if (f.constraint) first.constraint = { ...f.constraint, ...first.constraint };
  }
  return [...byField.values()];
}

/** The 400: every field named in the message, each with its reason in details.errors[]. */
export function refusal(errors: FieldError[]): HttpError {
  return invalidInput(errors, `Invalid request: ${errors.map((e) => e.message).join('; ')}`);
}
