import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/http/index.js';
import { ApiError } from '../../../src/errors.js';
import { RATE_LIMIT_DEFAULT_WAIT_MS } from '../../../src/http/retry-after.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const auth = { kind: 'basic' as const, tokenId: 't', secret: 's' };
const rateLimited = { status: 429, code: 'RATE_LIMITED', message: 'Too many requests' };

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 429 with the given Retry-After for the first `times` requests, then 200. */
async function limitedServer(times: number, retryAfter: string | undefined): Promise<LocalServer> {
  return startServer((_req, res, i) =>
    i < times
      ? sendJson(res, 429, rateLimited, retryAfter === undefined ? {} : { 'retry-after': retryAfter })
      : sendJson(res, 200, { ok: i }),
  );
}

describe('429 handling', () => {
  it('waits Retry-After seconds and repeats a GET', async () => {
    server = await limitedServer(1, '1');
    const started = Date.now();
    const res = await createClient({ baseUrl: server.origin, auth }).request({ method: 'GET', path: '/x' });
    expect(res.body).toEqual({ ok: 1 });
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('accepts an HTTP-date Retry-After: a date already past means retry now, not the 1 s default', async () => {
    server = await limitedServer(1, new Date(Date.now() - 60_000).toUTCString());
    const started = Date.now();
    const res = await createClient({ baseUrl: server.origin, auth }).request({ method: 'DELETE', path: '/x' });
    expect(res.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(RATE_LIMIT_DEFAULT_WAIT_MS - 200);
  });

  it('repeats a POST that carries Request-Id (a signed retry is idempotent), byte-identical', async () => {
    server = await limitedServer(2, '0');
    const body = '{"clientPublicKey":"02aa"}';
    const res = await createClient({ baseUrl: server.origin, auth }).request({
      method: 'POST',
      path: '/auth/sessions/S/refresh',
      body,
      headers: { 'Request-Id': 'Request:1', 'Service-Wallet-Signature': 'sig' },
    });
    expect(res.status).toBe(200);
    expect(server.requests).toHaveLength(3);
    for (const r of server.requests) {
      expect(r.body.toString()).toBe(body);
      expect(r.headers['request-id']).toBe('Request:1');
      expect(r.headers['service-wallet-signature']).toBe('sig');
    }
  });

  it('does not repeat a plain POST: the 429 surfaces as ApiError RATE_LIMITED', async () => {
    server = await limitedServer(1, '0');
    const err = await createClient({ baseUrl: server.origin, auth })
      .request({ method: 'POST', path: '/sandbox/send', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(server.requests).toHaveLength(1);
  });

  it('gives RATE_LIMITED even when the 429 has no error body', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(429);
      res.end();
    });
    const err = await createClient({ baseUrl: server.origin, auth })
      .request({ method: 'POST', path: '/x' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });

  it('does not sit through a Retry-After longer than the cap, and says how long to wait', async () => {
    server = await limitedServer(1, '3600');
    const err = await createClient({ baseUrl: server.origin, auth })
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((err as ApiError).hint).toContain('3600s');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after a few attempts', async () => {
    server = await limitedServer(100, '0');
    const err = await createClient({ baseUrl: server.origin, auth })
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(server.requests).toHaveLength(4);
  });
});
