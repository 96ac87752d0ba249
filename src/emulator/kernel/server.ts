/**
 * The node:http front: Authorization on every request but public pages, the version prefix, body
 * limits and JSON parsing (400), routing (404/405) and a catch-all 500, so no request can crash
 * the process. Unversioned routes (emulator-only endpoints, embed pages) are matched first.
 * A request with `Expect: 100-continue` is told to send its body only once it passed all of that
 * but the reading: a refusal (401, 404, a declared size over the limit) comes without it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { API_VERSION } from '../../service/api-version.js';
import { checkAgentRequest, scopeAgentReply } from './agent-scope.js';
import { basicRefused, type Principal } from './auth.js';
import { readBody, parseJsonObject } from './body.js';
import type { EmulatorContext } from './context.js';
import { HttpError, invalidInput } from './errors.js';
import { exchangeRecorder, type SchemaVerdict } from './exchange-log.js';
import { type Match, noRoute, type Reply, type Req, type Router } from './router.js';
import { answerOnce } from './idempotency.js';
import { checkPermission } from './permissions.js';
import { requestLogEntry } from './request-log.js';
import { checkRequest } from './request-check/index.js';
import { replacementOf } from '../../service/no-route.js';

/** The emulator serves the API version the client speaks. */
export const VERSION_PREFIX = `/${API_VERSION}`;

export interface ServerParts {
  /** Routes below VERSION_PREFIX (paths relative to it). */
  api: Router;
  /** Routes at the root. */
  unversioned: Router;
  authorize(header: string | undefined): Principal;
  /** Serves the request itself when it is the dashboard's (dashboard/serve.ts); kept out of the request log. */
  dashboard?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** Sends the reply; returns the body text it sent (for the request log), if any. */
function send(res: ServerResponse, reply: Reply): string | undefined {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.text !== undefined) {
    res.writeHead(reply.status, headers).end(reply.text);
    return reply.text;
  }
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers).end();
    return undefined;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers).end(text);
  return text;
}

function errorReply(error: HttpError): Reply {
  return { status: error.status, body: error.toBody(), headers: { ...error.headers } };
}

/** The request target as a URL, or undefined when it cannot be one (e.g. `//[`): never a throw. */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://emulator.invalid');
  } catch {
    return undefined;
  }
}

/** Finds the route; throws the 401/404/405 when there is none or the caller may not use it. */
function route(
  parts: ServerParts,
  req: IncomingMessage,
  method: string,
  url: URL,
): { match: Match; path: string; principal: Principal } {
  const root = parts.unversioned.find(method, url.pathname);
  if (root) {
    const principal: Principal = root.route.public ? { kind: 'platform' } : parts.authorize(req.headers.authorization);
    // Emulator-only endpoints (the clock, webhook replay) belong to the platform running it, not to an agent.
    if (principal.kind !== 'platform')
      throw basicRefused(`${url.pathname} is an emulator endpoint: it takes HTTP Basic credentials only`);
    return { match: root, path: url.pathname, principal };
  }
  const versioned = url.pathname === VERSION_PREFIX || url.pathname.startsWith(`${VERSION_PREFIX}/`);
  const path = url.pathname.slice(VERSION_PREFIX.length) || '/';
  // A public API route (device-code redeem: the code is the proof) needs no Authorization.
  const found = versioned ? parts.api.find(method, path) : undefined;
  if (found?.route.public) return { match: found, path, principal: { kind: 'platform' } };
  const scheme = (req.headers.authorization ?? '').split(/\s+/, 1)[0]!;
  if (found?.route.basicOnly && scheme !== '' && scheme.toLowerCase() !== 'basic') {
    throw basicRefused(
      `${method} ${path.replace(/\/[^/]*:[^/]*/g, '/{id}')} accepts HTTP Basic credentials only, not ${scheme}`,
    );
  }
  const principal = parts.authorize(req.headers.authorization);
  if (!versioned) throw noRoute(`No route for ${url.pathname}: API paths live under ${VERSION_PREFIX}`);
  const replaced = replacementOf(method, path);
  if (replaced) throw noRoute(`${method} ${path} is no longer part of the API: use ${replaced}`, replaced);
  const match = found ?? parts.api.match(method, path);
  checkPermission(principal, match.route, method, path);
  return { match, path, principal };
}

/** What the request log and the contract recorder learn of a request while it is handled. */
interface Seen {
  raw?: Buffer;
  principal?: Principal;
  unlogged?: boolean;
  /** The schema check's verdict, when it ran (a refusal of a body that is not JSON counts as refused). */
  schema?: SchemaVerdict;
}

async function handle(
  emu: EmulatorContext,
  parts: ServerParts,
  req: IncomingMessage,
  logAs: (p: string) => void,
  seen: Seen,
  admitted?: () => void,
): Promise<Reply> {
  const url = parseTarget(req.url);
  const method = req.method ?? 'GET';
  if (!url) {
    parts.authorize(req.headers.authorization);
    throw invalidInput([{ field: 'path', message: 'The request target is not a valid URL path' }]);
  }
  // A secret in the path (a reveal token, a device code) never reaches the request log.
  const hidden =
    parts.unversioned.logPathFor(url.pathname) ??
    (url.pathname.startsWith(`${VERSION_PREFIX}/`)
      ? parts.api.logPathFor(url.pathname.slice(VERSION_PREFIX.length))
      : undefined);
  if (hidden) logAs(hidden);
  const { match, path, principal } = route(parts, req, method, url);
  seen.principal = principal;
  seen.unlogged = match.route.unlogged;
  const raw = await readBody(req, match.route.maxBodyBytes, admitted);
  seen.raw = raw;
  let parsed: Record<string, unknown> | undefined;
  const request: Req = {
    method,
    path,
    query: url.searchParams,
    headers: req.headers,
    raw,
    params: match.params,
    principal,
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
    json: () => (parsed ??= parseJsonObject(req, raw)),
  };
  match.route.guard?.(request, emu);
  // The description's schema next: handlers see only requests it allows (request-check/).
  seen.schema = 'refused';
  const formCheck = checkRequest(match.route, request);
  if (formCheck) await formCheck;
  seen.schema = 'passed';
  if (principal.kind === 'agent') checkAgentRequest(emu, request);
  const writes = emu.file !== undefined && method !== 'GET' && method !== 'HEAD';
  // While the --state file cannot be saved, a write is refused (503) before it changes anything.
  if (writes) await emu.file!.writable();
  let reply = await (match.route.idempotent
    ? answerOnce(match.route, request, emu)
    : match.route.handler(request, emu));
  if (principal.kind === 'agent') reply = scopeAgentReply(emu, request, reply);
  // A change is acknowledged only once it is in the --state file (a kill after the answer loses nothing).
  if (writes) await emu.file!.saved();
  return reply;
}

export function createEmulatorServer(emu: EmulatorContext, parts: ServerParts, requestTimeoutMs = 30_000): Server {
  // node's defaults (300 s a request, 60 s for headers) let a few slow clients hold sockets for minutes.
  const limits = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(requestTimeoutMs, 20_000),
    connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
  };
  const server = createServer(limits, (req, res) => serve(req, res, false));
  // Without this listener node answers `Expect: 100-continue` itself, before anything was checked.
  server.on('checkContinue', (req, res) => serve(req, res, true));
  return server;

  function serve(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    if (parts.dashboard?.(req, res)) return;
    const started = performance.now();
    // Until a route says otherwise (a secret in its path), the log shows the path without the query.
    let logPath = (req.url ?? '').split('?')[0];
    const logAs = (p: string) => {
      logPath = p;
    };
    const seen: Seen = {};
    const done = (reply: Reply, sent: string | undefined) => {
      exchangeRecorder?.http(req, seen.raw, reply, seen.schema);
      const durationMs = performance.now() - started;
      if (!seen.unlogged)
        emu.requests.record(
          requestLogEntry(emu.now(), req, logPath, reply, sent, durationMs, seen.raw, seen.principal),
        );
      emu.log({ kind: 'request', method: req.method, path: logPath, status: reply.status, ms: Math.round(durationMs) });
    };
    const answer = (reply: Reply) => done(reply, send(res, reply));
    const admitted = expectsContinue ? () => res.writeContinue() : undefined;
    handle(emu, parts, req, logAs, seen, admitted).then(answer, (error: unknown) => {
      let reply: Reply;
      if (error instanceof HttpError) {
        reply = errorReply(error);
      } else {
        emu.log({
          kind: 'error',
          method: req.method,
          path: logPath,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        reply = {
          status: 500,
          body: { status: 500, code: 'INTERNAL_ERROR', message: 'The emulator hit an internal error' },
        };
      }
      let sent: string | undefined;
      if (res.headersSent) res.destroy();
      else sent = send(res, reply);
      done(reply, sent);
    });
  }
}
