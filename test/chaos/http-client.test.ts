/**
 * The HTTP client against servers that misbehave, all on loopback: one that accepts and never
 * answers (timeout, then a NetworkError saying so), one that answers garbage, 500, 429 with
 * Retry-After (repeated only for requests safe to repeat), a redirect to another host (never
 * followed, so the credentials never go there), a dead HTTPS_PROXY (named in the error), and one
 * that streams its answer without end (stopped at the size limit, with an error saying so).
 */
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { hintFor } from '../../commands/error-hints.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, ResponseTooLargeError, StillProcessingError } from '../../src/errors.js';
import { signedRequest } from '../../src/signing/index.js';
import { createClient } from '../../src/http/index.js';
import { startServer, type LocalServer } from '../integration/http/local-server.js';
import { printFigures, report } from './report.js';

const auth = { kind: 'basic' as const, tokenId: 'tok', secret: 'chaos-secret-never-leaves' };
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});
afterAll(printFigures);

/** A raw TCP server: `onSocket` decides what (if anything) is written back. */
async function tcpServer(
  onSocket: (socket: import('node:net').Socket) => void,
): Promise<{ port: number; server: TcpServer; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (e: unknown) => e,
  );
}

function judge(attack: string, ok: boolean, detail: string): void {
  report({ suite: 'client', attack, tried: 1, survived: ok ? 1 : 0, lost: ok ? 0 : 1, detail });
}

describe('the HTTP client against misbehaving servers', () => {
  it('a server that accepts and never answers: a timeout, then a NetworkError that says so', async () => {
    const silent = await tcpServer(() => {});
    open.push(silent);
    const client = createClient({ baseUrl: `http://127.0.0.1:${silent.port}`, auth, env: {}, timeoutMs: 500 });
    const started = performance.now();
    const error = await outcome(client.request({ method: 'GET', path: '/x' }));
    const ms = Math.round(performance.now() - started);
    judge(
      'server accepts and never answers (timeout 500 ms)',
      error instanceof NetworkError && error.timedOut && ms < 3000,
      `${(error as Error).message} after ${ms} ms`,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect((error as Error).message).toMatch(/No answer from http:\/\/127\.0\.0\.1:\d+\/.* within/);
    expect(ms).toBeLessThan(3000);
  });

  it('a server that answers garbage: a NetworkError, not a crash or a hang', async () => {
    const garbage = await tcpServer((s) => s.once('data', () => s.end('SSH-2.0-OpenSSH\r\n\x00\xff\r\n\r\n')));
    open.push(garbage);
    const client = createClient({ baseUrl: `http://127.0.0.1:${garbage.port}`, auth, env: {}, timeoutMs: 2000 });
    const error = await outcome(client.request({ method: 'GET', path: '/x' }));
    judge(
      'server answers garbage',
      error instanceof NetworkError && !(error as NetworkError).timedOut,
      (error as Error).message,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(false);
    expect((error as Error).message).toMatch(/not HTTP/);
    expect(String((error as Error).message)).not.toContain(auth.secret);
  });

  it('a server that streams without end: stopped at the 16 MiB limit, an error saying so', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'x');
    let written = 0;
    const server: LocalServer = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) break;
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    open.push(server);
    const client = createClient({ baseUrl: server.origin, auth, env: {}, timeoutMs: 20_000 });
    const rssBefore = process.memoryUsage().rss;
    const error = await outcome(client.request({ method: 'GET', path: '/customers' }));
    const grewMiB = Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20);
    const message = (error as Error).message;
    judge(
      'server streams an endless 200 body (default 16 MiB limit)',
      error instanceof ResponseTooLargeError && !/No answer|Could not reach/.test(message),
      `${message}; server wrote ${Math.round(written / 2 ** 20)} MiB, client RSS +${grewMiB} MiB`,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(message).toContain('more than 16 MiB');
    expect(written).toBeLessThan(64 * 2 ** 20);
  });

  it('a signed retry answered PROCESSING forever (expiresAt a month ahead): --timeout 2 ends it', async () => {
    const server: LocalServer = await startServer((_req, res) => {
      res.writeHead(server.requests.length === 1 ? 202 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          server.requests.length === 1
            ? { payloadToSign: 'p', requestId: 'Request:1', expiresAt: new Date(Date.now() + 30 * 864e5).toISOString() }
            : { status: 'PROCESSING' },
        ),
      );
    });
    open.push(server);
    const client = createClient({ baseUrl: server.origin, auth, env: {}, timeoutMs: 2000 });
    const started = performance.now();
    const error = await outcome(
      signedRequest(client, { method: 'POST', path: '/auth/sessions/S/refresh', sign: () => 's' }),
    );
    const ms = Math.round(performance.now() - started);
    judge(
      'signed retry PROCESSING forever, --timeout 2',
      error instanceof StillProcessingError && ms < 4000,
      `${server.requests.length} requests in ${ms} ms: ${(error as Error).message}`,
    );
    expect(error).toBeInstanceOf(StillProcessingError);
    expect(ms).toBeLessThan(4000);
    expect(server.requests.length).toBeLessThan(10);
  });

  it('500: an ApiError at once, a POST not repeated', async () => {
    const server: LocalServer = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
    });
    open.push(server);
    const client = createClient({ baseUrl: server.origin, auth, env: {} });
    const error = await outcome(client.request({ method: 'POST', path: '/x', body: { a: 1 } }));
    judge(
      '500 on a POST',
      error instanceof ApiError && server.requests.length === 1,
      `${(error as ApiError).code}, ${server.requests.length} request(s)`,
    );
    expect(error).toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('429 with Retry-After: a GET is repeated after the wait, a plain POST is not', async () => {
    const server = await startServer((req, res) => {
      const first = server.requests.filter((r) => r.method === req.method).length === 1;
      if (first) {
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        res.end('{"status":429,"code":"RATE_LIMITED","message":"slow down"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
    open.push(server);
    const client = createClient({ baseUrl: server.origin, auth, env: {} });
    const get = await outcome(client.request({ method: 'GET', path: '/x' }));
    const post = await outcome(client.request({ method: 'POST', path: '/x', body: { a: 1 } }));
    const gets = server.requests.filter((r) => r.method === 'GET').length;
    const posts = server.requests.filter((r) => r.method === 'POST').length;
    judge(
      '429 Retry-After: GET repeated, plain POST not',
      get === 'resolved' && post instanceof ApiError && gets === 2 && posts === 1,
      `GET sent ${gets}×, POST sent ${posts}×`,
    );
    expect(get).toBe('resolved');
    expect(post).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect([gets, posts]).toEqual([2, 1]);
  });

  it('a redirect to another host is never followed: the credentials stay home', async () => {
    const elsewhere = await startServer((_req, res) => res.end('{}'));
    open.push(elsewhere);
    const other = elsewhere.origin.replace('127.0.0.1', '127.0.0.2'); // another host, still loopback
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `${other}/steal` });
      res.end();
    });
    open.push(server);
    const client = createClient({ baseUrl: server.origin, auth, env: {} });
    const error = await outcome(client.request({ method: 'GET', path: '/x' }));
    judge(
      'cross-host redirect',
      error instanceof ApiError && elsewhere.requests.length === 0,
      `${(error as ApiError).status}; ${elsewhere.requests.length} request(s) reached the other host`,
    );
    expect(error).toMatchObject({ status: 302 });
    expect(hintFor(error as ApiError)).toMatch(/redirected; check the base URL \(--base-url/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a dead HTTPS_PROXY: a NetworkError naming the proxy and the variable, not the service', async () => {
    const dead = await tcpServer(() => {});
    const port = dead.port;
    await dead.close(); // nothing listens there any more
    // The remote host is never resolved: the client only ever tries the (loopback) proxy.
    const client = createClient({
      baseUrl: 'https://api.sandbox.invalid',
      auth,
      env: { HTTPS_PROXY: `http://user:proxy-pass@127.0.0.1:${port}` },
      timeoutMs: 3000,
    });
    const error = await outcome(client.request({ method: 'GET', path: '/x' }));
    const message = (error as Error).message;
    judge(
      'dead HTTPS_PROXY',
      error instanceof NetworkError && message.includes(`127.0.0.1:${port}`) && message.includes('HTTPS_PROXY'),
      message,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(message).toContain(`through the proxy http://127.0.0.1:${port} (HTTPS_PROXY)`);
    expect(`${message} ${(error as NetworkError).hint}`).not.toContain('proxy-pass');
  });
});
