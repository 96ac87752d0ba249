/**
 * The node:http front: version prefix, HTTP Basic on every API request, a 1 MiB body limit (413),
 * JSON parsing (400), routing (404/405) and a catch-all 500, so no request can crash the process.
 * The only unauthenticated path is the one-use card reveal page (see reveal.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { API_VERSION } from '../http/base-url.js';
import type { EmulatorContext } from './context.js';
import { HttpError, invalidInput } from './errors.js';
import { EMBED_PREFIX, revealPage } from './reveal.js';
import type { Reply, Req, Router } from './router.js';

/** The emulator serves the API version the client speaks. */
export const VERSION_PREFIX = `/${API_VERSION}`;
const MAX_BODY_BYTES = 1024 * 1024;
/** application/json, or a +json type, with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers).end(text);
}

function errorReply(error: HttpError): Reply {
  return { status: error.status, body: error.toBody(), headers: { ...error.headers } };
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Only a failed Basic check asks for credentials; signature 401s are not cured by re-sending them. */
function basicRefused(reason: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', 'Unauthorized', { reason, headers: { 'www-authenticate': 'Basic realm="svc-emulator"' } });
}

/**
 * The Basic check for one emulator. It compares SHA-256 digests (the expected ones made once), not
 * the strings: timingSafeEqual needs equal lengths, and bailing out on a length mismatch would
 * tell a caller how long the secret is. Both halves are always compared, so the timing does not
 * say which one was wrong either.
 */
function basicAuthChecker(emu: EmulatorContext): (header: string | undefined) => void {
  const expectedId = digest(emu.state.apiTokenId);
  const expectedSecret = digest(emu.state.apiClientSecret);
  return (header) => {
    if (!header) throw basicRefused('Missing HTTP Basic credentials: send Authorization: Basic base64(<api token id>:<api client secret>)');
    const [scheme, value = ''] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'basic') throw basicRefused(`The emulator accepts HTTP Basic credentials only, not ${scheme}`);
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const okId = timingSafeEqual(digest(colon < 0 ? decoded : decoded.slice(0, colon)), expectedId);
    const okSecret = timingSafeEqual(digest(colon < 0 ? '' : decoded.slice(colon + 1)), expectedSecret);
    if (!okId || !okSecret) throw basicRefused('Invalid API token id or client secret');
  };
}

/** Reads the body up to the limit; beyond it, the rest is drained and 413 is answered. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const tooLarge = () => new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function parseJsonObject(req: IncomingMessage, raw: Buffer): Record<string, unknown> {
  const bodyError = (message: string) => invalidInput([{ field: 'body', constraint: { format: 'json' }, message }], message);
  if (raw.length === 0) throw bodyError('A JSON object body is required');
  // The spec gives these bodies as content type application/json; a body sent without it (or as
  // text/plain) is not read as JSON by the service either, so it is refused here too.
  const type = req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) throw bodyError(`Content-Type must be application/json, not ${type ?? 'absent'}`);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw bodyError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bodyError('The body must be a JSON object');
  return value as Record<string, unknown>;
}

/** The request target as a URL, or undefined when it cannot be one (e.g. `//[`): never a throw. */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://emulator.invalid');
  } catch {
    return undefined;
  }
}

type BasicCheck = ReturnType<typeof basicAuthChecker>;

async function handle(emu: EmulatorContext, router: Router, checkBasicAuth: BasicCheck, req: IncomingMessage, res: ServerResponse): Promise<number> {
  const url = parseTarget(req.url);
  const method = req.method ?? 'GET';
  if (!url) {
    checkBasicAuth(req.headers.authorization);
    throw invalidInput([{ field: 'path', message: 'The request target is not a valid URL path' }]);
  }
  if (url.pathname.startsWith(EMBED_PREFIX) && method === 'GET') {
    const page = revealPage(emu, url.pathname.slice(EMBED_PREFIX.length));
    res.writeHead(page.status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    }).end(page.html);
    return page.status;
  }
  checkBasicAuth(req.headers.authorization);
  if (url.pathname !== VERSION_PREFIX && !url.pathname.startsWith(`${VERSION_PREFIX}/`)) {
    throw new HttpError(404, 'NOT_FOUND', `No route for ${url.pathname}: API paths live under ${VERSION_PREFIX}`);
  }
  const path = url.pathname.slice(VERSION_PREFIX.length) || '/';
  const { handler, params } = router.match(method, path);
  const raw = await readBody(req);
  let parsed: Record<string, unknown> | undefined;
  const request: Req = {
    method,
    path,
    query: url.searchParams,
    headers: req.headers,
    raw,
    params,
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
    json: () => (parsed ??= parseJsonObject(req, raw)),
  };
  const reply = await handler(request, emu);
  send(res, reply);
  return reply.status;
}

export function createEmulatorServer(emu: EmulatorContext, router: Router): Server {
  const checkBasicAuth = basicAuthChecker(emu);
  return createServer((req, res) => {
    const started = performance.now();
    const logPath = (req.url ?? '').startsWith(EMBED_PREFIX) ? `${EMBED_PREFIX}<token>` : (req.url ?? '').split('?')[0];
    const done = (status: number) => emu.log({ kind: 'request', method: req.method, path: logPath, status, ms: Math.round(performance.now() - started) });
    handle(emu, router, checkBasicAuth, req, res).then(done, (error: unknown) => {
      let reply: Reply;
      if (error instanceof HttpError) {
        reply = errorReply(error);
      } else {
        emu.log({ kind: 'error', method: req.method, path: logPath, message: error instanceof Error ? error.stack ?? error.message : String(error) });
        reply = { status: 500, body: { status: 500, code: 'INTERNAL_ERROR', message: 'The emulator hit an internal error' } };
      }
      if (res.headersSent) res.destroy();
      else send(res, reply);
      done(reply.status);
    });
  });
}
