/**
 * The schema check every request of an operation the API description has passes before its
 * handler runs: path parameters, query, the headers the description declares and the JSON body or
 * the multipart form's parts (form.ts),
 * against validators generated from the description at build time (.ci/request-validators.mjs →
 * generated/operations.js and the module of each operation, read on its first request by load.ts;
 * nothing is compiled at start). A failure is one 400 INVALID_INPUT
 * naming every failing field (refusal.ts); nothing has run, so nothing was created or changed.
 * Handlers then check only business rules: magic values, state, ownership.
 *
 * A route is tied to its operation once, by its path template (`/customers/:id(Customer)` is the
 * description's `/customers/{customerId}`); routes the description does not have (emulator-only
 * endpoints) are not checked.
 */
import type { FieldError } from '../../../errors.js';
import type { Req, Route } from '../router.js';
import {
  type GeneratedValidator,
  OPERATIONS,
  type OperationFacts,
  type ParameterFacts,
} from './generated/operations.js';
import { formErrors } from './form.js';
import { validatorsOf } from './load.js';
import { fieldErrors, refusal } from './refusal.js';

/** `GET /customers/{}`: a path template with its parameters' names left out. */
const shape = (method: string, path: string) =>
  `${method} ${path.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z]+(?:\([A-Za-z]+\))?/g, '{}')}`;

interface Tied {
  key: string;
  /** The route's parameter names (`id`) in path order, each the description's (`customerId`) at that place. */
  params: [route: string, described: string][];
}

let byShape: Map<string, string> | undefined;
const ofRoute = new WeakMap<Route, Tied | null>();

const namesIn = (path: string, pattern: RegExp) => [...path.matchAll(pattern)].map((m) => m[1]!);

function tie(route: Route): Tied | null {
  byShape ??= new Map(Object.keys(OPERATIONS).map((k) => [shape(...(k.split(' ') as [string, string])), k]));
  const key = route.unversioned ? undefined : byShape.get(shape(route.method, route.path));
  if (key === undefined) return null;
  const described = namesIn(key, /\{([^}]+)\}/g);
  const own = namesIn(route.path, /:([A-Za-z]+)/g);
  return { key, params: own.map((name, i) => [name, described[i]!]) };
}

function tied(route: Route): Tied | undefined {
  let found = ofRoute.get(route);
  if (found === undefined) {
    found = tie(route);
    ofRoute.set(route, found);
  }
  return found ?? undefined;
}

/** The description's operation (`METHOD /path/{template}`) a route serves, if it has one. */
export function operationOf(route: Route): string | undefined {
  return tied(route)?.key;
}

function parameterErrors(
  validate: GeneratedValidator | undefined,
  facts: ParameterFacts,
  values: Record<string, unknown>,
): FieldError[] {
  if (!validate || validate(values)) return [];
  const names = new Map(facts.names.map((n) => [n.toLowerCase(), n]));
  for (const n of facts.names) names.set(n, n);
  return fieldErrors(validate.errors ?? [], { prefix: '', names });
}

function queryOf(check: ParameterFacts, query: URLSearchParams): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of check.names) {
    if (!query.has(name)) continue;
    values[name] = check.arrays.includes(name) ? query.getAll(name) : query.get(name);
  }
  return values;
}

function headersOf(check: ParameterFacts, req: Req): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of check.names) {
    const value = req.header(name.toLowerCase());
    if (value !== undefined) values[name.toLowerCase()] = value;
  }
  return values;
}

/**
 * Every schema rule of the operation, all failures at once; throws the 400 when any fails. A
 * multipart form is read asynchronously: then the answer is a promise, which rejects with the 400.
 */
function check(
  key: string,
  op: OperationFacts,
  req: Req,
  pathValues: Record<string, string>,
): Promise<void> | undefined {
  if (op.module === undefined) return undefined;
  const validators = validatorsOf(op.module, key);
  const errors: FieldError[] = [];
  if (op.path) errors.push(...parameterErrors(validators.path, op.path, pathValues));
  if (op.query) errors.push(...parameterErrors(validators.query, op.query, queryOf(op.query, req.query)));
  if (op.header) errors.push(...parameterErrors(validators.header, op.header, headersOf(op.header, req)));
  const body = op.body;
  const validate = validators.body;
  // A JSON body is read when the operation requires one or one was sent (req.json() refuses a body
  // that is not a JSON object, naming `body`); an optional body left out is not checked.
  if (body?.json && validate && (body.required || req.raw.length > 0)) {
    const json = req.json();
    if (!validate(json)) errors.push(...fieldErrors(validate.errors ?? [], { prefix: '' }));
  }
  if (body?.form && validators.form) return withForm(errors, formErrors(validators.form, body.form.files, req));
  if (errors.length > 0) throw refusal(errors);
  return undefined;
}

async function withForm(errors: FieldError[], form: Promise<FieldError[]>): Promise<void> {
  errors.push(...(await form));
  if (errors.length > 0) throw refusal(errors);
}

/**
 * Checks a request to a route against its operation in the description (no-op for other routes).
 * Synchronous but for a multipart form, whose check it returns as a promise to await.
 */
export function checkRequest(route: Route, req: Req): Promise<void> | undefined {
  const found = tied(route);
  if (found === undefined) return undefined;
  const pathValues: Record<string, string> = {};
  for (const [own, described] of found.params) pathValues[described] = req.params[own]!;
  return check(found.key, OPERATIONS[found.key]!, req, pathValues);
}
