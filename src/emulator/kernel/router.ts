/**
 * A small route table: `/auth/sessions/:id/refresh`-style paths compiled to regexes, matched
 * against the path below the version segment. A path that matches with another method is a 405
 * (with Allow), a path that matches nothing is a 404.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EmulatorContext } from './context.js';
import type { Principal } from './auth.js';
import { NO_ROUTE_DETAILS } from '../../service/no-route.js';
import { HttpError } from './errors.js';
import { Fields } from './fields.js';

export interface Req {
  method: string;
  /** Path below /2025-10-13, e.g. /auth/sessions/Session:…/refresh */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The exact body bytes (signed retries compare re-sends byte for byte). */
  raw: Buffer;
  params: Record<string, string>;
  /** Who is calling: the platform (Basic) or whatever a feature's auth scheme says. */
  principal: Principal;
  header(name: string): string | undefined;
  /** The body as a JSON object, or 400 INVALID_INPUT naming `body`. */
  json(): Record<string, unknown>;
}

export interface Reply {
  status: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is instead of `body` (an HTML page): headers must then give its content-type. */
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: Req, emu: EmulatorContext) => Reply | Promise<Reply>;

/** The description's token permissions (Permission: VIEW, TRANSACT, MANAGE), or none. */
type RoutePermission = 'VIEW' | 'TRANSACT' | 'MANAGE' | 'none';

export interface Route {
  method: string;
  /** `/cards/:id`, or `/customers/:id(Customer)` for an id of one kind; below the version segment unless `unversioned`. */
  path: string;
  /**
   * The API token permission a call needs (kernel/permissions.ts): `VIEW` for reads, `TRANSACT` for
   * what moves or prices money, `MANAGE` for every other change; `none` where no token permission
   * applies (public pages, the emulator's own endpoints at the root).
   */
  permission: RoutePermission;
  /** 403 FORBIDDEN for a token without the permission, where the operation declares it; else 401 UNAUTHORIZED. */
  permissionRefusal?: 403;
  handler: Handler;
  /** Served at the root, outside `/<version>` (emulator-only endpoints, embed pages). */
  unversioned?: boolean;
  /** No Authorization needed: the reveal page (its URL is the secret), device-code redeem (the code is). */
  public?: boolean;
  /** Only HTTP Basic, never an agent's Bearer token (the spec's refresh endpoint). */
  basicOnly?: boolean;
  /** What the request log shows instead of the path (hides a secret path segment). */
  logPath?: string;
  /** Left out of the request log (the log's own reader, `svc emulator logs --follow`, would fill it). */
  unlogged?: boolean;
  /**
   * Answers kept under the request's Idempotency-Key (kernel/idempotency.ts): a repeat gets the first
   * success again without the handler running. `target` names what a key is for (default `METHOD path`).
   */
  idempotent?: { target?: (req: Req) => string };
  /** Body limit of this route (default 1 MiB); beyond it, 400 naming `body`. */
  maxBodyBytes?: number;
  /**
   * Who may call, beyond Authorization (an agent route's principal and permission): run before the
   * request's schema check (request-check/), so a caller who may not call gets its 401 or 403, not a 400.
   */
  guard?: (req: Req, emu: EmulatorContext) => void;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
  /** The literal first segment (`cards` of `/cards/:id`), or undefined when it is a parameter. */
  head: string | undefined;
}

/** The first segment of a path (`customers` of `/customers/Customer:…`). */
function headOf(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

export class Router {
  private readonly routes: CompiledRoute[] = [];
  /**
   * The routes a method+first segment can match, in table order: a request tries a handful of
   * regexes instead of every route, so adding areas does not slow the others. Built on first use.
   */
  private index: Map<string, CompiledRoute[]> | undefined;

  add(routes: readonly Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      // `:id` is any segment; `:id(Customer)` only an identifier of that kind (`Customer:…`, colon
      // maybe percent-encoded), so `/customers/:id(Customer)` leaves `/customers/internal-accounts`
      // to the area that serves it, whatever the order of areas.
      const source = route.path.replace(/:([A-Za-z]+)(?:\(([A-Za-z]+)\))?/g, (_m, name: string, kind?: string) => {
        names.push(name);
        return kind ? `(${kind}(?::|%3[Aa])[^/]+)` : '([^/]+)';
      });
      const first = headOf(route.path);
      this.routes.push({
        ...route,
        regex: new RegExp(`^${source}$`),
        names,
        head: first.startsWith(':') ? undefined : first,
      });
    }
    this.index = undefined;
    return this;
  }

  /** The route and path parameters for method+path, if one matches both. */
  find(method: string, path: string): Match | undefined {
    for (const route of this.candidates(method, path)) {
      const m = route.regex.exec(path);
      if (m) return { route, params: paramsOf(route, m) };
    }
    return undefined;
  }

  /** Routes of this method whose first segment is this path's (or a parameter), in table order. */
  private candidates(method: string, path: string): readonly CompiledRoute[] {
    this.index ??= new Map();
    const head = headOf(path);
    const key = `${method} ${head}`;
    let list = this.index.get(key);
    if (!list) {
      list = this.routes.filter((r) => r.method === method && (r.head === undefined || r.head === head));
      // Only heads some route names are kept, so odd request paths cannot grow the index.
      if (list.length > 0 || this.routes.some((r) => r.head === head)) this.index.set(key, list);
    }
    return list;
  }

  /** The logPath of a route on this path (any method), so a secret in the path never reaches the log. */
  logPathFor(path: string): string | undefined {
    return this.routes.find((route) => route.logPath !== undefined && route.regex.test(path))?.logPath;
  }

  /** The route and path parameters for method+path, or a 404/405 HttpError. */
  match(method: string, path: string): Match {
    const found = this.find(method, path);
    if (found) return found;
    // One entry a method, however many routes of it share the path (`/customers/:id` and `…/:id(Customer)`).
    const allowed = [...new Set(this.routes.filter((route) => route.regex.test(path)).map((route) => route.method))];
    if (allowed.length > 0) {
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    throw noRoute(`No route for ${method} ${path}`);
  }
}

/** 404 for a path no route serves: REFERENCE_NOT_FOUND (the description has no code for it), marked so. */
export function noRoute(message: string, replacement?: string): HttpError {
  const details = replacement ? { ...NO_ROUTE_DETAILS, replacement } : { ...NO_ROUTE_DETAILS };
  return new HttpError(404, 'REFERENCE_NOT_FOUND', message, { details });
}

/**
 * A GET list of records, narrowed to one owner when the query names it (`?cardholderId=`,
 * `?customerId=`): `{data, hasMore: false}` (everything fits on one page in the emulator).
 * `records` gets that owner, so it can answer from an index rather than from every record.
 */
export function ownedListRoute<T>(
  path: string,
  param: string,
  pattern: RegExp,
  records: (emu: EmulatorContext, ownerId: string | undefined) => Iterable<T>,
  owner: (record: T) => string,
  render: (record: T) => unknown,
): Route {
  return {
    method: 'GET',
    path,
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const ownerId = f.string(param, { pattern });
      f.done();
      const data = [...records(emu, ownerId)].filter((r) => !ownerId || owner(r) === ownerId).map(render);
      return { status: 200, body: { data, hasMore: false } };
    },
  };
}

function paramsOf(route: CompiledRoute, m: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  route.names.forEach((name, i) => {
    params[name] = safeDecode(m[i + 1]!);
  });
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
