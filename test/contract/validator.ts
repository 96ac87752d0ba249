/**
 * Validates recorded exchanges against api-schema.json (the facts-only digest of the service's public
 * API description; regenerate it with generate-schema.mjs): the operation of a request, whether its
 * status is declared, the response body against the schema declared for that status, a request body
 * (JSON, or a multipart form's parts) against the operation's request schema, and a webhook body against the webhook of its `type`.
 * JSON Schema 2020-12 (the description is OpenAPI 3.1) through Ajv; `discriminator` is only a hint.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Schema = Record<string, any>;
type Content = Record<string, Schema> | null;

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody: { required: boolean; content: Content } | null;
  responses: Record<string, Content>;
}

interface Facts {
  $id: string;
  operations: Record<string, Operation>;
  webhooks: Record<string, { body: Schema | null }>;
  components: { schemas: Record<string, Schema> };
}

export interface Matched {
  /** `METHOD /path/{template}` as the description names it. */
  key: string;
  operation: Operation;
}

export interface Verdict {
  ok: boolean;
  /** Readable reasons, one per failed check (field path and what the schema wanted). */
  errors: string[];
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'multipart/form-data';

function pointer(...segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
}

function line(e: ErrorObject, base: string): string {
  const where = base + e.instancePath || '(body)';
  const extra =
    e.keyword === 'enum'
      ? ` ${JSON.stringify(e.params.allowedValues)}`
      : e.keyword === 'additionalProperties'
        ? ` (${e.params.additionalProperty})`
        : '';
  return `${where} ${e.message}${extra}`;
}

/** A path segment as a server reads it; one that is not valid percent-encoding stays as sent. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const under = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly facts: Facts;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Parameters arrive as strings: this Ajv coerces them to their declared types, as a server reads them. */
  private readonly params: Ajv2020;
  private readonly paramValidators = new Map<string, ValidateFunction>();
  private readonly matchers: { key: string; method: string; regex: RegExp; literals: number }[];
  /** Webhook event type → the webhook's name in the description. */
  readonly webhookOfType = new Map<string, string>();

  constructor(file: string) {
    this.facts = JSON.parse(readFileSync(file, 'utf8')) as Facts;
    // verbose: errors carry their schema and data, so a failed discriminated oneOf can be explained.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, verbose: true });
    addFormats(this.ajv);
    for (const f of ['int32', 'int64', 'float', 'double', 'binary']) this.ajv.addFormat(f, true);
    this.ajv.addSchema(this.facts as unknown as Schema);
    this.params = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, coerceTypes: 'array' });
    addFormats(this.params);
    for (const f of ['int32', 'int64', 'float', 'double', 'binary']) this.params.addFormat(f, true);
    this.params.addSchema(this.facts as unknown as Schema);
    this.matchers = Object.keys(this.facts.operations).map((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      // `/customers/internal-accounts` must win over `/customers/{customerId}`: most literal segments first.
      const literals = path.split('/').filter((s) => s && !s.startsWith('{')).length;
      return { key, method, regex: new RegExp(`^${source}$`), literals };
    });
    this.matchers.sort((a, b) => b.literals - a.literals);
    for (const [name, hook] of Object.entries(this.facts.webhooks)) {
      for (const type of this.typeValues(hook.body)) this.webhookOfType.set(type, name);
    }
  }

  /** The operation for a method and a path below the version segment, if the description has one. */
  match(method: string, path: string): Matched | undefined {
    const found = this.matchers.find((m) => m.method === method && m.regex.test(path));
    return found ? { key: found.key, operation: this.facts.operations[found.key]! } : undefined;
  }

  /** Whether some operation has this path with another method (the emulator's 405). */
  pathKnown(path: string): boolean {
    return this.matchers.some((m) => m.regex.test(path));
  }

  response(m: Matched, status: number, body: unknown): Verdict {
    const declared = m.operation.responses;
    if (!(String(status) in declared)) {
      return {
        ok: false,
        errors: [`status ${status} is not declared (declared: ${Object.keys(declared).join(', ')})`],
      };
    }
    const content = declared[String(status)];
    const schema = content?.[JSON_TYPE];
    if (!schema) {
      return body === undefined || body === null
        ? { ok: true, errors: [] }
        : { ok: false, errors: [`status ${status} declares no JSON body, but one was sent`] };
    }
    if (body === undefined) return { ok: false, errors: [`status ${status} declares a JSON body, none was sent`] };
    return this.check(pointer('operations', m.key, 'responses', String(status), JSON_TYPE), body);
  }

  /** A JSON request body against the operation's request schema (other content types are not checked). */
  request(m: Matched, body: unknown): Verdict {
    const schema = m.operation.requestBody?.content?.[JSON_TYPE];
    if (!schema) return { ok: true, errors: [] };
    return this.check(pointer('operations', m.key, 'requestBody', 'content', JSON_TYPE), body);
  }

  /**
   * A multipart form's parts (each name's content, text or file) against the operation's form
   * schema; a part declared as a file (`format: binary`) is any content.
   */
  form(m: Matched, parts: Record<string, string>): Verdict {
    if (!m.operation.requestBody?.content?.[FORM_TYPE]) return { ok: true, errors: [] };
    return this.check(pointer('operations', m.key, 'requestBody', 'content', FORM_TYPE), parts);
  }

  /** The path and query parameters of a request target (`/customers/C1?limit=5`, below the version segment). */
  parameters(m: Matched, path: string, query: URLSearchParams): Verdict {
    const values: Record<string, unknown> = {};
    const names = [...m.key.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!);
    const template = m.key.split(' ')[1]!.split('/');
    path.split('/').forEach((segment, i) => {
      const name = /^\{(.+)\}$/.exec(template[i] ?? '')?.[1];
      if (name && names.includes(name)) values[name] = safeDecode(segment);
    });
    for (const p of m.operation.parameters.filter((x) => x.in === 'query')) {
      if (query.has(p.name))
        values[p.name] = query.getAll(p.name).length > 1 ? query.getAll(p.name) : query.get(p.name);
    }
    let validate = this.paramValidators.get(m.key);
    if (!validate) {
      const list = m.operation.parameters
        .map((p, i) => ({ ...p, i }))
        .filter((p) => p.in === 'path' || p.in === 'query');
      validate = this.params.compile({
        type: 'object',
        properties: Object.fromEntries(
          list.map((p) => [
            p.name,
            { $ref: `${this.facts.$id}#/${pointer('operations', m.key, 'parameters', String(p.i), 'schema')}` },
          ]),
        ),
        required: list.filter((p) => p.required).map((p) => p.name),
      });
      this.paramValidators.set(m.key, validate);
    }
    const ok = validate(values) as boolean;
    return { ok, errors: ok ? [] : (validate.errors ?? []).map((e) => line(e, '(parameters)')) };
  }

  webhook(body: { type?: unknown }): Verdict {
    const name = typeof body.type === 'string' ? this.webhookOfType.get(body.type) : undefined;
    if (!name) return { ok: false, errors: [`webhook type ${String(body.type)} is not one the description declares`] };
    return this.check(pointer('webhooks', name, 'body'), body);
  }

  private check(ptr: string, value: unknown): Verdict {
    const validate = this.validator(ptr);
    const ok = validate(value) as boolean;
    return { ok, errors: ok ? [] : [...new Set(this.explain(validate.errors ?? [], ''))].slice(0, 12) };
  }

  private validator(ptr: string): ValidateFunction {
    let validate = this.compiled.get(ptr);
    if (!validate) {
      validate = this.ajv.getSchema(`${this.facts.$id}#/${ptr}`);
      if (!validate) throw new Error(`no schema at ${ptr}`);
      this.compiled.set(ptr, validate);
    }
    return validate;
  }

  /**
   * Readable errors. A failed oneOf repeats the errors of every branch (dozens for a payment
   * instruction); where the description names a discriminator, only the branch the value selects
   * is validated again and reported.
   */
  private explain(errors: ErrorObject[], base: string): string[] {
    const picked = errors.filter((e) => e.keyword === 'oneOf' && (e.parentSchema as Schema)?.discriminator);
    let rest = errors.filter((e) => !picked.some((p) => p !== e && under(e.instancePath, p.instancePath)));
    const out: string[] = [];
    for (const e of picked) {
      const { propertyName, mapping } = (e.parentSchema as Schema).discriminator as {
        propertyName: string;
        mapping?: Record<string, string>;
      };
      const value = (e.data as Record<string, unknown> | null)?.[propertyName];
      const ref = mapping?.[String(value)];
      if (!ref) {
        out.push(`${base}${e.instancePath}/${propertyName} ${JSON.stringify(value)} is not one of the mapped values`);
        continue;
      }
      const branch = this.validator(ref.slice(2));
      if (!branch(e.data)) out.push(...this.explain(branch.errors ?? [], base + e.instancePath));
    }
    rest = rest.filter(
      (e) => !picked.includes(e) && e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if',
    );
    return [...out, ...rest.map((e) => line(e, base))];
  }

  /** The values a webhook body schema allows for `type` (following $ref, allOf, oneOf, anyOf). */
  private typeValues(schema: Schema | null | undefined, seen = new Set<Schema>()): string[] {
    if (!schema || seen.has(schema)) return [];
    seen.add(schema);
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.replace('#/components/schemas/', '');
      return this.typeValues(this.facts.components.schemas[name], seen);
    }
    const own = schema.properties?.type;
    const values: string[] = own?.enum ?? (own?.const !== undefined ? [own.const] : []);
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
      values.push(...this.typeValues(part, seen));
    }
    return values;
  }
}
