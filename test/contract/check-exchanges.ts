/**
 * The contract check over what the emulator recorded during a test run (src/emulator/kernel/exchange-log.ts):
 * every response of an operation the description names has a declared status and a body valid for it,
 * every webhook body is valid for its type, and every request the emulator accepted (2xx) or svc
 * sent is valid (its JSON body or its multipart form's parts), except the listed differences (differences.ts). Returns the failures, grouped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formParts } from './form-parts.js';
import { DESCRIPTION_GAPS, type Difference, SPEC_DIFFERENCES } from './differences.js';
import { ContractValidator } from './validator.js';

const SCHEMA_FILE = fileURLToPath(new URL('./api-schema.json', import.meta.url));
const VERSION_PREFIX = '/2025-10-13';
/** svc's own client (src/http/client.ts): its requests must be valid whatever the emulator answers. */
const SVC_USER_AGENT = 'service-cli';

interface Recorded {
  kind: 'http' | 'webhook';
  method?: string;
  url?: string;
  userAgent?: string;
  scheme?: string;
  requestType?: string;
  request?: string;
  /** The body's size: a body over the recorder's limit is recorded by size only. */
  requestBytes?: number;
  status?: number;
  response?: unknown;
  body?: string;
  /** The emulator's schema check (kernel/request-check/): passed, or refused with its 400. */
  schema?: 'passed' | 'refused';
}

export interface Failure {
  kind: Difference['kind'];
  operation: string;
  status?: number;
  errors: string[];
  /** What was sent or answered, for the report (first occurrence). */
  example: string;
  count: number;
}

export interface CheckResult {
  checked: { responses: number; requests: number; webhooks: number; refusals: number };
  failures: Failure[];
  /** Listed differences that were seen. */
  forgiven: number;
}

type Found = Omit<Failure, 'count' | 'example'>;

/** What a difference is matched against besides the failure: the body and who called. */
interface Seen {
  body: unknown;
  agent: boolean;
}

function forgiven(list: readonly Difference[], f: Found, seen: Seen): boolean {
  return list.some(
    (d) =>
      d.kind === f.kind &&
      (d.operation === f.operation || d.operation === '*') &&
      (d.status === undefined || d.status === f.status) &&
      (!d.agentOnly || seen.agent) &&
      (!d.body || d.body(seen.body)),
  );
}

/** Refusals that the description's schemas do not make but its prose, a header or the body's syntax do. */
function refusedByProse(response: unknown): boolean {
  const errors = (
    response as { details?: { errors?: { field: string; rule?: string; constraint?: { format?: string } }[] } }
  )?.details?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return false;
  return errors.some(
    (e) =>
      e.field === 'body' ||
      /^[A-Z][A-Za-z-]*$/.test(e.field) || // a header (Idempotency-Key): not recorded, so not checked here
      e.constraint?.format === 'iso3166-1-alpha-2' ||
      e.field.endsWith('scaFactor'),
  );
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The path of a request target, or undefined when it is not one (a test sends `//[` on purpose). */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://x').pathname;
  } catch {
    return undefined;
  }
}

function shorten(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '(none)' : text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

export function checkExchanges(folder: string): CheckResult {
  const validator = new ContractValidator(SCHEMA_FILE);
  const failures = new Map<string, Failure>();
  const checked = { responses: 0, requests: 0, webhooks: 0, refusals: 0 };
  let forgivenCount = 0;
  const fail = (f: Found, example: unknown, agent = false) => {
    const context = { body: example, agent };
    if (forgiven(SPEC_DIFFERENCES, f, context) || forgiven(DESCRIPTION_GAPS, f, context)) {
      forgivenCount++;
      return;
    }
    const key = `${f.kind} ${f.operation} ${f.status} ${f.errors.join('|')}`;
    const seen = failures.get(key);
    if (seen) seen.count++;
    else failures.set(key, { ...f, example: shorten(example), count: 1 });
  };

  const files = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
  for (const name of files) {
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as Recorded;
      if (r.kind === 'webhook') {
        checked.webhooks++;
        const body = parse(r.body) as { type?: unknown };
        const v = validator.webhook(body);
        if (!v.ok) fail({ kind: 'webhook', operation: `webhook ${String(body.type)}`, errors: v.errors }, body);
        continue;
      }
      const pathname = pathOf(r.url);
      if (!pathname?.startsWith(`${VERSION_PREFIX}/`)) continue; // emulator-only endpoints, embed pages
      const path = pathname.slice(VERSION_PREFIX.length);
      const m = validator.match(r.method!, path);
      if (!m) continue; // a route the description does not have: nothing to compare with
      checked.responses++;
      const res = validator.response(m, r.status!, r.response);
      if (!res.ok) {
        const kind = res.errors[0]?.startsWith('status ') ? 'status' : 'response';
        fail({ kind, operation: m.key, status: r.status, errors: res.errors }, r.response, r.scheme === 'bearer');
      }
      const accepted = r.status! >= 200 && r.status! < 300;
      const json = r.requestType?.includes('json') ? parse(r.request) : undefined;
      const target = new URL(r.url!, 'http://x');
      // What the description says of the request, independently of the emulator's generated check.
      const form = r.request !== undefined && json === undefined ? formParts(r.request, r.requestType) : undefined;
      const verdicts = [
        validator.parameters(m, path, target.searchParams),
        ...(json !== undefined ? [validator.request(m, json)] : []),
        ...(form !== undefined ? [validator.form(m, form)] : []),
      ];
      const invalid = verdicts.flatMap((v) => v.errors);
      // A JSON body the operation requires, not sent as JSON (absent, or of another type), is invalid too.
      const body = m.operation.requestBody;
      const unrecorded = r.request === undefined && (r.requestBytes ?? 0) > 0;
      // A request refused for its credentials (401) is answered before its body is read, so the
      // recorder has none: whether one was sent is unknown, not absent.
      const bodyRead = r.status !== 401;
      if (json === undefined && !unrecorded && bodyRead && body?.required && body.content?.['application/json'])
        invalid.push('the JSON body the operation requires was not sent');
      if (r.schema === 'passed' || accepted || r.userAgent?.startsWith(SVC_USER_AGENT)) {
        // Everything that got past the schema check, or that svc sent, is valid for the description.
        checked.requests++;
        if (invalid.length > 0)
          fail(
            { kind: 'request', operation: m.key, status: r.status, errors: invalid },
            json ?? r.url,
            r.scheme === 'bearer',
          );
      } else if (r.schema === 'refused' && r.status === 400 && !unrecorded) {
        // And what it refused is invalid for the description, or broke one of the rules the emulator
        // adds from the description's prose (request-check/schema-changes.json), or was no JSON at all.
        checked.refusals++;
        if (invalid.length === 0 && !refusedByProse(r.response))
          fail(
            {
              kind: 'request',
              operation: m.key,
              status: r.status,
              errors: ['refused a request the description allows'],
            },
            { request: json ?? r.url, response: r.response },
          );
      }
    }
  }
  return { checked, failures: [...failures.values()], forgiven: forgivenCount };
}

export function report(result: CheckResult): string {
  const lines = [
    `Contract check: ${result.failures.length} difference(s) from the service's public API description`,
    '(test/contract/api-schema.json). Fix the emulator (or svc, for a request it sends) to match the',
    'description. Only if the spec (../shared/spec/service-spec.md) mandates the difference, add it to',
    'SPEC_DIFFERENCES in test/contract/differences.ts with the clause that mandates it.',
    '',
  ];
  for (const f of result.failures) {
    lines.push(`- ${f.kind} ${f.operation}${f.status ? ` → ${f.status}` : ''} (×${f.count})`);
    for (const e of f.errors) lines.push(`    ${e}`);
    lines.push(`    e.g. ${f.example}`);
  }
  return lines.join('\n');
}
