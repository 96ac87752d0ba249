/**
 * The node:http front: version prefix, HTTP Basic on every API request, a 1 MiB body limit (413),
 * JSON parsing (400), routing (404/405) and a catch-all 500, so no request can crash the process.
 * The only unauthenticated path is the one-use card reveal page (see reveal.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { HttpError, invalidInput, unauthorized } from './errors.js';
import { EMBED_PREFIX, revealPage } from './reveal.js';
import type { Reply, Req, Router } from './router.js';

export const VERSION_PREFIX = '/2025-10-13';
export const MAX_BODY_BYTES = 1024 * 1024;

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
  const headers = { ...error.headers };
  if (error.status === 401 && error.code === 'UNAUTHORIZED') headers['www-authenticate'] = 'Basic realm="svc-emulator"';
  return { status: error.status, body: error.toBody(), headers };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkBasicAuth(emu: EmulatorContext, header: string | undefined): void {
  if (!header) throw unauthorized('Missing HTTP Basic credentials: send Authorization: Basic base64(<api token id>:<api client secret>)');
  const [scheme, value = ''] = header.split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic') throw unauthorized(`The emulator accepts HTTP Basic credentials only, not ${scheme}`);
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const tokenId = colon < 0 ? decoded : decoded.slice(0, colon);
  const secret = colon < 0 ? '' : decoded.slice(colon + 1);
  const okId = sameSecret(tokenId, emu.state.apiTokenId);
  const okSecret = sameSecret(secret, emu.state.apiClientSecret);
  if (!okId || !okSecret) throw unauthorized('Invalid API token id or client secret');
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
  const type = req.headers['content-type'];
  if (type && !/json/i.test(type)) throw bodyError(`Content-Type must be application/json, not ${type}`);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw bodyError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bodyError('The body must be a JSON object');
  return value as Record<string, unknown>;
}

async function handle(emu: EmulatorContext, router: Router, req: IncomingMessage, res: ServerResponse): Promise<number> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
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
  checkBasicAuth(emu, req.headers.authorization);
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
  return createServer((req, res) => {
    const started = performance.now();
    const logPath = (req.url ?? '').startsWith(EMBED_PREFIX) ? `${EMBED_PREFIX}<token>` : (req.url ?? '').split('?')[0];
    const done = (status: number) => emu.log({ kind: 'request', method: req.method, path: logPath, status, ms: Math.round(performance.now() - started) });
    handle(emu, router, req, res).then(done, (error: unknown) => {
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
