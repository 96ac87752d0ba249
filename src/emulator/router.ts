/**
 * A small route table: `/auth/sessions/:id/refresh`-style paths compiled to regexes, matched
 * against the path below the version segment. A path that matches with another method is a 405
 * (with Allow), a path that matches nothing is a 404.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EmulatorContext } from './context.js';
import { HttpError } from './errors.js';
import { Fields } from './validation.js';

export interface Req {
  method: string;
  /** Path below /2025-10-13, e.g. /auth/sessions/Session:…/refresh */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The exact body bytes (signed retries compare re-sends byte for byte). */
  raw: Buffer;
  params: Record<string, string>;
  header(name: string): string | undefined;
  /** The body as a JSON object, or 400 INVALID_INPUT naming `body`. */
  json(): Record<string, unknown>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: Req, emu: EmulatorContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  path: string;
  handler: Handler;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(routes: Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      this.routes.push({ ...route, regex: new RegExp(`^${source}$`), names });
    }
    return this;
  }

  /** The handler and path parameters for method+path, or a 404/405 HttpError. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(m[i + 1]!);
      });
      return { handler: route.handler, params };
    }
    if (allowed.length > 0) {
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    throw new HttpError(404, 'NOT_FOUND', `No route for ${method} ${path}`);
  }
}

/**
 * A GET list of records, narrowed to one owner when the query names it (`?cardholderId=`,
 * `?customerId=`): `{data, hasMore: false}` (everything fits on one page in the emulator).
 */
export function ownedListRoute<T>(
  path: string,
  param: string,
  pattern: RegExp,
  records: (emu: EmulatorContext) => Iterable<T>,
  owner: (record: T) => string,
  render: (record: T) => unknown,
): Route {
  return {
    method: 'GET',
    path,
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const ownerId = f.string(param, { pattern });
      f.done();
      const data = [...records(emu)].filter((r) => !ownerId || owner(r) === ownerId).map(render);
      return { status: 200, body: { data, hasMore: false } };
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
