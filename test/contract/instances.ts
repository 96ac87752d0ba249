/**
 * Requests made from the API description alone (test/contract/api-schema.json), for the contract
 * test's request side: for each operation a minimal valid request (its required parameters, headers
 * and body fields, each the simplest value its schema allows), and from it one invalid variant per
 * rule class the operation has (a required field left out, a wrong type, a value outside an enum, a
 * broken format, pattern or length, a number out of range, an item count, a required query
 * parameter or header missing), each naming the field it breaks. Independent of the emulator's
 * generated validators: this reads the description, not them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Schema;
}
export interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody: { required: boolean; content: Record<string, Schema> | null } | null;
}
export interface Facts {
  operations: Record<string, Operation>;
  components: { schemas: Record<string, Schema> };
}

export const FACTS = JSON.parse(
  readFileSync(fileURLToPath(new URL('./api-schema.json', import.meta.url)), 'utf8'),
) as Facts;

/** A value matching each pattern the description uses; a new pattern fails the test until added here. */
const PATTERN_SAMPLES: Record<string, string> = {
  '^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$': `02${'a'.repeat(64)}`,
  '^AE[0-9]{21}$': `AE${'0'.repeat(21)}`,
  '^DK[0-9]{16}$': `DK${'0'.repeat(16)}`,
  '^EG[0-9]{27}$': `EG${'0'.repeat(27)}`,
  '^PK[0-9]{2}[A-Z]{4}[0-9]{16}$': `PK00ABCD${'0'.repeat(16)}`,
  '^[A-Z]{2}$': 'US',
  '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$': 'DE89370400440532013000',
  '^[A-Z]{4}0[A-Z0-9]{6}$': 'ABCD0123456',
  '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$': 'DEUTDEFF',
  '^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$': 'user@bank',
  '^\\+250[0-9]{9}$': '+250123456789',
  '^\\+254[0-9]{9}$': '+254123456789',
  '^\\+255[0-9]{9}$': '+255123456789',
  '^\\+260[0-9]{9}$': '+260123456789',
  '^\\+62[0-9]{9,12}$': '+62123456789',
  '^\\+[0-9]{6,14}$': '+15555550100',
  '^\\+[1-9]\\d{1,14}$': '+15555550100',
  '^https://': 'https://example.com/x',
};

function patternSample(pattern: string): string {
  const known = PATTERN_SAMPLES[pattern];
  if (known !== undefined) return known;
  // Digits only: `^[0-9]+$`, `^[0-9]{9}$`, `^\d{2,6}$`, `^[0-9]{9,18}$`.
  const digits = /^\^(?:\[0-9\]|\\d)(?:\{(\d+)(?:,\d*)?\}|\+)\$$/.exec(pattern);
  if (digits) return '1'.repeat(Number(digits[1] ?? 3));
  throw new Error(`no sample for the pattern ${pattern}: add one to PATTERN_SAMPLES`);
}

const FORMAT_SAMPLES: Record<string, string> = {
  date: '2025-10-13',
  'date-time': '2025-10-13T09:30:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/x',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};
/** Fields the emulator holds to ISO 3166-1 alpha-2 (schema-changes.json): the valid base names a country. */
const COUNTRY_FIELDS = new Set(['country', 'nationality', 'countryOfResidence', 'region', 'countriesOfOperation']);

export function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  while (typeof s.$ref === 'string') s = FACTS.components.schemas[s.$ref.replace('#/components/schemas/', '')]!;
  return s;
}

/** The branch a discriminated oneOf (or a plain one) takes for the sample: the first. */
function branchOf(s: Schema): Schema | undefined {
  if (s.discriminator?.mapping) {
    const [tag, ref] = Object.entries(s.discriminator.mapping as Record<string, string>)[0]!;
    return { allOf: [{ $ref: ref }, { properties: { [s.discriminator.propertyName]: { const: tag } } }] };
  }
  return s.oneOf?.[0] ?? s.anyOf?.[0];
}

/** One object schema of an allOf/oneOf composition: properties and required merged. */
export function flatten(schema: Schema | undefined): Schema {
  const s = resolve(schema);
  const parts = [...(s.allOf ?? [])];
  const branch = branchOf(s);
  if (branch) parts.push(branch);
  if (parts.length === 0) return s;
  const out: Schema = { ...s, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
  delete out.allOf;
  delete out.oneOf;
  delete out.anyOf;
  for (const part of parts.map(flatten)) {
    if (part.type && !out.type) out.type = part.type;
    for (const [k, v] of Object.entries(part.properties ?? {})) {
      // A const from a discriminator wins over the branch's own enum.
      out.properties[k] = out.properties[k]?.const !== undefined ? out.properties[k] : v;
    }
    out.required.push(...(part.required ?? []));
    for (const key of ['enum', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'items'])
      if (part[key] !== undefined && out[key] === undefined) out[key] = part[key];
  }
  out.required = [...new Set(out.required)];
  return out;
}

const typeOf = (s: Schema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;

/** The simplest value the schema allows (`name` is the property's, for country codes). */
export function sample(schema: Schema | undefined, name = ''): unknown {
  const s = flatten(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string': {
      if (s.format && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format];
      if (s.pattern) return patternSample(s.pattern);
      if (COUNTRY_FIELDS.has(name)) return 'US';
      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
    }
    case 'integer':
    case 'number': {
      const low = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? 1);
      return s.maximum !== undefined ? Math.min(low, s.maximum) : low;
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, name));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key], key);
      return out;
    }
    default:
      return 'x';
  }
}

export type RuleClass =
  | 'required'
  | 'type'
  | 'enum'
  | 'format'
  | 'pattern'
  | 'length'
  | 'range'
  | 'items'
  | 'query'
  | 'header';

export interface Variant {
  rule: RuleClass;
  /** The field the refusal must name (dot path, or the parameter's name). */
  field: string;
  body?: unknown;
  query: Record<string, string>;
  headers: Record<string, string>;
}

interface Found {
  path: (string | number)[];
  schema: Schema;
  /** Whether it is a required property of its object. */
  required: boolean;
}

/** Every field of a sample with its flattened schema, depth first. */
function fieldsOf(
  value: unknown,
  schema: Schema | undefined,
  path: (string | number)[] = [],
  out: Found[] = [],
): Found[] {
  const s = flatten(schema);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ path: [...path, i], schema: flatten(s.items), required: false });
      fieldsOf(item, s.items, [...path, i], out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      out.push({
        path: [...path, key],
        schema: flatten(s.properties?.[key]),
        required: (s.required ?? []).includes(key),
      });
      fieldsOf(v, s.properties?.[key], [...path, key], out);
    }
  }
  return out;
}

const dotted = (path: (string | number)[]) =>
  path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');

function withValue(body: unknown, path: (string | number)[], value: unknown, drop = false): unknown {
  const copy = structuredClone(body) as any;
  let node = copy;
  for (const p of path.slice(0, -1)) node = node[p];
  const last = path[path.length - 1]!;
  if (drop) delete node[last];
  else node[last] = value;
  return copy;
}

/** The body's variants: for each rule class, the first field that has the rule, broken. */
function bodyVariants(body: unknown, schema: Schema): { rule: RuleClass; field: string; body: unknown }[] {
  const fields = fieldsOf(body, schema).filter((f) => f.schema.const === undefined || f.required);
  const out: { rule: RuleClass; field: string; body: unknown }[] = [];
  const first = (rule: RuleClass, pick: (f: Found) => unknown | undefined) => {
    for (const f of fields) {
      const broken = pick(f);
      if (broken === undefined) continue;
      out.push({
        rule,
        field: dotted(f.path),
        body: broken === DROP ? withValue(body, f.path, 0, true) : withValue(body, f.path, broken),
      });
      return;
    }
  };
  const DROP = Symbol('drop');
  first('required', (f) => (f.required ? DROP : undefined));
  first('type', (f) => (typeOf(f.schema) === 'string' ? 12345 : typeOf(f.schema) === 'integer' ? 'many' : undefined));
  first('enum', (f) => (f.schema.enum && typeOf(f.schema) === 'string' ? 'NOT_ONE_OF_THEM' : undefined));
  first('format', (f) => (f.schema.format && FORMAT_SAMPLES[f.schema.format] ? 'March 7, 2099 10:00' : undefined));
  first('pattern', (f) => (f.schema.pattern ? '!not matching!' : undefined));
  first('length', (f) =>
    f.schema.maxLength !== undefined && !f.schema.pattern && !f.schema.format
      ? 'y'.repeat(f.schema.maxLength + 1)
      : undefined,
  );
  first('range', (f) =>
    typeOf(f.schema) === 'integer' && f.schema.maximum !== undefined
      ? f.schema.maximum + 1
      : typeOf(f.schema) === 'integer' && (f.schema.minimum !== undefined || f.schema.exclusiveMinimum !== undefined)
        ? (f.schema.minimum ?? f.schema.exclusiveMinimum) - 1
        : undefined,
  );
  first('items', (f) => (typeOf(f.schema) === 'array' && (f.schema.minItems ?? 0) > 0 ? [] : undefined));
  return out;
}

export interface Planned {
  key: string;
  method: string;
  /** The path with each parameter replaced (sample ids are the caller's). */
  path: string;
  base: { body?: unknown; query: Record<string, string>; headers: Record<string, string> };
  variants: Variant[];
}

/** The valid base request of an operation and its invalid variants. */
export function plan(key: string, op: Operation): Planned {
  const [method, path] = key.split(' ') as [string, string];
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const p of op.parameters) {
    if (!p.required) continue;
    const value = String(sample(p.schema, p.name));
    if (p.in === 'query') query[p.name] = value;
    if (p.in === 'header') headers[p.name] = value;
  }
  const json = op.requestBody?.content?.['application/json'];
  const body = json ? sample(json) : undefined;
  const variants: Variant[] = [];
  if (json) for (const v of bodyVariants(body, json)) variants.push({ ...v, query, headers });
  const requiredQuery = op.parameters.find((p) => p.in === 'query' && p.required);
  if (requiredQuery) {
    const { [requiredQuery.name]: _left, ...rest } = query;
    variants.push({ rule: 'query', field: requiredQuery.name, body, query: rest, headers });
  }
  const bounded = op.parameters.find(
    (p) => p.in === 'query' && (resolve(p.schema).enum || resolve(p.schema).maximum !== undefined),
  );
  if (bounded) {
    const s = resolve(bounded.schema);
    const bad = s.enum ? 'NOT_ONE_OF_THEM' : String(s.maximum + 1);
    variants.push({ rule: 'query', field: bounded.name, body, query: { ...query, [bounded.name]: bad }, headers });
  }
  const requiredHeader = op.parameters.find((p) => p.in === 'header' && p.required);
  if (requiredHeader) {
    const { [requiredHeader.name]: _left, ...rest } = headers;
    variants.push({ rule: 'header', field: requiredHeader.name, body, query, headers: rest });
  }
  return { key, method, path, base: { ...(json ? { body } : {}), query, headers }, variants };
}
