import { afterEach, describe, expect, it } from 'vitest';
import { hintFor } from '../../../commands/error-hints.js';
import { createClient, type HttpLogEntry } from '../../../src/http/index.js';
import { ApiError, InterruptedError, NetworkError } from '../../../src/errors.js';
import { closedPort } from '../../helpers/closed-port.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const SECRET = 'sk_test_super-secret-value';
const basic = { kind: 'basic' as const, tokenId: 'tok_123', secret: SECRET };

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createClient against a real server', () => {
  it('sends HTTP Basic <token id>:<client secret> to the versioned base URL', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
    const client = createClient({ baseUrl: server.origin, auth: basic });
    const res = await client.request({ method: 'get', path: '/auth/sessions?accountId=InternalAccount:1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const seen = server.requests[0]!;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/2025-10-13/auth/sessions?accountId=InternalAccount:1');
    expect(seen.headers.authorization).toBe(`Basic ${Buffer.from(`tok_123:${SECRET}`).toString('base64')}`);
    expect(seen.headers.accept).toBe('application/json');
    expect(client.baseUrl).toBe(`${server.origin}/2025-10-13`);
  });

  it('sends the requests of a flow, one right after another, over one connection', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
    const connections: number[] = [];
    server.server.on('connection', (socket) => connections.push(socket.remotePort ?? 0));
    const client = createClient({ baseUrl: server.origin, auth: basic });
    for (let i = 0; i < 3; i++) await client.request({ method: 'post', path: '/step', body: { i } });
    expect(server.requests).toHaveLength(3);
    expect(connections).toHaveLength(1);
  });

  it('sends Bearer auth and joins paths without a leading slash', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const client = createClient({
      baseUrl: `${server.origin}/2025-10-13/`,
      auth: { kind: 'bearer', token: 'agent-token' },
    });
    await client.request({ method: 'GET', path: 'cards' });
    expect(server.requests[0]!.url).toBe('/2025-10-13/cards');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer agent-token');
  });

  it('sends a string body as the exact bytes given, and an object as its JSON', async () => {
    server = await startServer((_req, res) => sendJson(res, 201, { id: 'x' }));
    const client = createClient({ baseUrl: server.origin, auth: basic });
    const exact = '{ "clientPublicKey" :"02ab",\n  "note": "é \u2028 ✓" }';
    await client.request({ method: 'POST', path: '/a', body: exact });
    await client.request({ method: 'POST', path: '/b', body: { b: 1, a: 'é' } });
    expect(server.requests[0]!.body.equals(Buffer.from(exact, 'utf8'))).toBe(true);
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[1]!.body.toString('utf8')).toBe('{"b":1,"a":"é"}');
  });

  it('returns 204 with an undefined body and lower-cased headers', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(204, { 'X-Trace': 'abc' });
      res.end();
    });
    const res = await createClient({ baseUrl: server.origin, auth: basic }).request({ method: 'DELETE', path: '/x' });
    expect(res).toMatchObject({ status: 204, body: undefined, text: '' });
    expect(res.headers['x-trace']).toBe('abc');
  });

  it('turns an error body into an ApiError with status, code, message, details and reason', async () => {
    const errors = [{ field: 'clientPublicKey', message: 'bad key', constraint: { pattern: '^0[23]' } }];
    server = await startServer((req, res) =>
      req.url?.endsWith('/bad')
        ? sendJson(res, 400, { status: 400, code: 'INVALID_INPUT', message: 'Invalid input', details: { errors } })
        : sendJson(res, 401, {
            status: 401,
            code: 'UNAUTHORIZED',
            message: 'Unauthorized',
            reason: 'Invalid OTP code',
          }),
    );
    const client = createClient({ baseUrl: server.origin, auth: basic });
    const bad = await client.request({ method: 'POST', path: '/bad', body: {} }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Invalid input',
      method: 'POST',
      path: '/bad',
    });
    expect((bad as ApiError).fieldErrors).toEqual(errors);
    const unauth = await client.request({ method: 'GET', path: '/who' }).catch((e: unknown) => e);
    expect(unauth).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
  });

  it('gives an ApiError with an HTTP_<status> code for a non-JSON 500', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway thing</body></html>');
    });
    const err = await createClient({ baseUrl: server.origin, auth: basic })
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 500, code: 'HTTP_500' });
    expect((err as ApiError).message).toContain('HTTP 500');
    expect((err as ApiError).message).not.toContain('<html>');
  });

  it('reports a refused connection as NetworkError naming the URL, hinting --base-url, without the secret', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, auth: basic });
    const err = await client
      .request({ method: 'GET', path: '/auth/sessions?accountId=secret-query' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    const ne = err as NetworkError;
    expect(ne.timedOut).toBe(false);
    expect(ne.url).toBe(`http://127.0.0.1:${port}/2025-10-13/auth/sessions`);
    expect(ne.message).toContain(`127.0.0.1:${port}`);
    expect(ne.message).toContain('ECONNREFUSED');
    expect(ne).toMatchObject({ reason: 'UNREACHABLE', hint: expect.stringContaining('Check the base URL') });
    // What the CLI shows: its flag and the command that starts a local sandbox.
    expect(hintFor(ne)).toMatch(/--base-url or SERVICE_BASE_URL.*svc emulator start/);
    expect(`${ne.message} ${ne.hint} ${ne.url}`).not.toContain(SECRET);
    expect(ne.message).not.toContain('secret-query');
  });

  it('times out when the server never answers', async () => {
    server = await startServer(() => {
      /* never respond */
    });
    const client = createClient({ baseUrl: server.origin, auth: basic, timeoutMs: 200 });
    const started = Date.now();
    const err = await client.request({ method: 'GET', path: '/slow' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops with InterruptedError when the caller aborts', async () => {
    server = await startServer(() => {
      /* never respond */
    });
    const ac = new AbortController();
    const pending = createClient({ baseUrl: server.origin, auth: basic }).request({
      method: 'GET',
      path: '/slow',
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
  });

  it('hands the log callback the query, never the secret, headers, body or a secret-named query value', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { echoed: SECRET }));
    const entries: HttpLogEntry[] = [];
    const client = createClient({ baseUrl: server.origin, auth: basic, log: (e) => entries.push(e) });
    await client.request({
      method: 'POST',
      path: `/x?limit=2&token=${SECRET}&cursor=c1`,
      body: { secret: SECRET },
      headers: { 'X-Extra': SECRET },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      method: 'POST',
      path: '/x',
      query: '?limit=2&token=***&cursor=c1',
      status: 200,
    });
    expect(typeof entries[0]!.ms).toBe('number');
    const logged = JSON.stringify(entries);
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(Buffer.from(`tok_123:${SECRET}`).toString('base64'));
  });
});
