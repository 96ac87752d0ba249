/**
 * The HTTP front: Basic auth on every request, the version prefix, 404/405, malformed JSON, wrong
 * types, oversized bodies (400 naming `body`: no 413, which neither the spec nor the description has),
 * `Expect: 100-continue` refused before the body is invited, and the catch-all 500, always in the
 * spec's error shape.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authorizationChecker } from '../../../../src/emulator/kernel/auth.js';
import { VirtualClock } from '../../../../src/emulator/kernel/clock.js';
import { EmulatorContext } from '../../../../src/emulator/kernel/context.js';
import { resolveOptions } from '../../../../src/emulator/options.js';
import { Router } from '../../../../src/emulator/kernel/router.js';
import { createEmulatorServer } from '../../../../src/emulator/kernel/server.js';
import { createCoreState } from '../../../../src/emulator/kernel/state.js';
import { TableSet } from '../../../../src/emulator/kernel/tables.js';
import { expectContinue } from '../../../helpers/expect-continue.js';
import { basicAuth, errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const fund = `/sandbox/internal-accounts/${'InternalAccount:00000000-0000-0000-0000-000000000000'}/fund`;

/**
 * A GET on 127.0.0.1:port with an exact request target (undici and fetch would normalize odd ones),
 * Basic auth with `credentials`.
 */
function rawGet(
  port: number | string,
  target: string,
  credentials: Parameters<typeof basicAuth>[0],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: target, headers: { authorization: basicAuth(credentials) } },
      (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (body += d))
          .on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject).end();
  });
}

describe('authentication', () => {
  it.each([
    ['GET', '/cards/x'],
    ['POST', '/sandbox/send'],
    ['GET', '/no/such/route'],
    ['DELETE', '/auth/sessions/x'],
  ])('401 UNAUTHORIZED with a reason before anything else: %s %s', async (method, path) => {
    const answer = await t.call(method, path, { auth: false });
    expect(answer.status).toBe(401);
    expect(errorShape(answer)).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringContaining('Basic') });
  });

  it('a right token id with a wrong secret is refused', async () => {
    const auth = `Basic ${Buffer.from(`${t.emu.apiTokenId}:wrong`).toString('base64')}`;
    expect(errorShape(await t.call('GET', '/config', { auth }))).toMatchObject({
      status: 401,
      reason: 'Invalid API token id or client secret',
    });
  });
});

describe('routing', () => {
  it("404 for an unknown route, a path outside the version segment or an id of the wrong shape: the description's generic REFERENCE_NOT_FOUND, marked as no route", async () => {
    const noRoute = { status: 404, code: 'REFERENCE_NOT_FOUND', details: { route: 'UNKNOWN' } };
    expect(errorShape(await t.call('GET', '/nothing-here'))).toMatchObject(noRoute);
    expect(errorShape(await t.call('GET', '/customers/nobody'))).toMatchObject(noRoute);
    const outside = await request(t.emu.baseUrl.replace('/2025-10-13', '/2024-01-01/cards'), {
      headers: { authorization: basicAuth(t.emu) },
    });
    expect(outside.statusCode).toBe(404);
    expect((await outside.body.json()) as object).toMatchObject(noRoute);
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const answer = await t.call('PUT', `/cards/${t.emu.fixtures.cardId}`);
    expect(errorShape(answer)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(answer.headers.allow).toBe('GET, PATCH');
  });

  it('400, not 500, for a request target that is not a URL path', async () => {
    const answer = await rawGet(new URL(t.emu.baseUrl).port, '//[', t.emu);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'path' }] },
    });
  });

  it('survives broken percent-encoding in ids', async () => {
    expect((await t.call('GET', '/cards/%E0%A4%A')).status).toBe(404);
    expect((await t.call('GET', '/config')).status).toBe(200);
  });
});

describe('bodies', () => {
  it.each([
    ['malformed JSON', '{"amount": '],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"hi"'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('400 INVALID_INPUT for %s', async (_name, body) => {
    const answer = await t.call('POST', fund, { body });
    expect(answer.status).toBe(400);
    expect(errorShape(answer)).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'body', message: expect.any(String) }] },
    });
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['text/json', { 'content-type': 'text/json' }],
    ['no Content-Type at all', {}],
  ])('400 for a JSON body sent as %s', async (_name, headers) => {
    const res = await request(`${t.emu.baseUrl}${fund}`, {
      method: 'POST',
      headers: { authorization: basicAuth(t.emu), ...headers },
      body: '{"amount":1}',
    });
    expect(res.statusCode).toBe(400);
    expect(
      ((await res.body.json()) as { details: { errors: Array<{ message: string }> } }).details.errors[0]!.message,
    ).toMatch(/Content-Type/);
  });

  it.each([
    ['an array for an object', '/cards', '[{"cardholderId":"Customer:x"}]'],
    ['nesting 100000 deep', '/customers', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
    ['a number beyond double range', fund, '{"amount":1e400}'],
    ['a number beyond safe integers', fund, '{"amount":123456789012345678901234567890}'],
    ['objects where strings go', '/sandbox/send', '{"quoteId":{"toString":1},"currencyCode":["USD"]}'],
    ['NUL and astral characters', '/customers', '{"customerType":"INDIVIDUAL\\u0000","fullName":"\\ud83d\\ude00"}'],
    ['a lone surrogate', '/auth/sessions/x/refresh', '{"clientPublicKey":"\\ud800"}'],
  ])('a 4xx in the error shape, never a 500, for %s', async (_name, path, body) => {
    const answer = await t.call('POST', path, { body });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    errorShape(answer);
  });

  it('400 INVALID_INPUT for wrong types, every field listed', async () => {
    const answer = await t.call('POST', '/quotes', {
      body: {
        source: 'USD',
        destination: { destinationType: 3 },
        lockedCurrencySide: ['SENDING'],
        lockedCurrencyAmount: '100',
        description: 5,
      },
    });
    expect(answer.status).toBe(400);
    expect(errorShape(answer).details.errors.map((e: { field: string }) => e.field)).toEqual([
      'source',
      'destination.destinationType',
      'lockedCurrencySide',
      'lockedCurrencyAmount',
      'description',
    ]);
  });

  it('400 INVALID_INPUT naming body for a body over 1 MiB declared by Content-Length', async () => {
    const big = JSON.stringify({ amount: 1, pad: 'x'.repeat(1024 * 1024) });
    const answer = await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, { body: big });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(errorShape(answer).details.errors).toEqual([
      { field: 'body', constraint: { maxLength: 1024 * 1024 }, message: expect.stringMatching(/1048576 bytes/) },
    ]);
    expect((await t.call('GET', '/config')).status).toBe(200);
  });

  it('400 naming body for a chunked body that grows past 1 MiB', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const body = Readable.from(
      (function* () {
        yield '{"amount":1,"pad":"';
        for (let i = 0; i < 20; i++) yield chunk;
        yield '"}';
      })(),
    );
    const res = await request(`${t.emu.baseUrl}/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, {
      method: 'POST',
      headers: { authorization: basicAuth(t.emu), 'content-type': 'application/json' },
      body,
    });
    expect(res.statusCode).toBe(400);
    const refused = (await res.body.json()) as { code: string; details: { errors: { field: string }[] } };
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details.errors.map((e) => e.field)).toEqual(['body']);
  });

  it('exactly 1 MiB is still read (and then validated)', async () => {
    const prefix = '{"amount":1,"pad":"';
    const body = prefix + 'x'.repeat(1024 * 1024 - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const answer = await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, { body });
    expect(answer.status).toBe(200);
  });
});

describe('Expect: 100-continue', () => {
  const head = (path: string, length: number, authorization?: string) =>
    `POST ${new URL(t.emu.baseUrl).pathname}${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${length}\r\nExpect: 100-continue\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}` +
    'Connection: close\r\n\r\n';
  const funding = () => `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`;

  it('refuses a body declared too large, or a request without credentials, before inviting the body', async () => {
    const big = 2 * 1024 * 1024;
    expect(await expectContinue(t.emu.baseUrl, head(funding(), big, basicAuth(t.emu)), 'x'.repeat(big))).toEqual([
      'HTTP/1.1 400',
    ]);
    const body = '{"amount":1}';
    expect(await expectContinue(t.emu.baseUrl, head(funding(), body.length), body)).toEqual(['HTTP/1.1 401']);
    expect(await expectContinue(t.emu.baseUrl, head(funding(), body.length, 'Basic eDp5'), body)).toEqual([
      'HTTP/1.1 401',
    ]);
  });

  it('invites the body of a request it will read, and answers it', async () => {
    const body = '{"amount":1}';
    expect(await expectContinue(t.emu.baseUrl, head(funding(), body.length, basicAuth(t.emu)), body)).toEqual([
      'HTTP/1.1 100',
      'HTTP/1.1 200',
    ]);
  });
});

describe('the catch-all', () => {
  it('500 INTERNAL_ERROR for a handler that throws, and the server keeps serving', async () => {
    const state = createCoreState();
    const logged: string[] = [];
    const opts = resolveOptions({ port: 0, log: (e) => logged.push(e.kind) });
    const emu = new EmulatorContext({
      core: state,
      opts,
      file: undefined,
      clock: new VirtualClock(),
      tables: new TableSet(() => undefined, []),
    });
    const router = new Router().add([
      {
        method: 'GET',
        path: '/boom',
        permission: 'VIEW',
        handler: () => {
          throw new Error('kaboom');
        },
      },
      { method: 'GET', path: '/ok', permission: 'VIEW', handler: () => ({ status: 200, body: { ok: true } }) },
    ]);
    const server = createEmulatorServer(emu, {
      api: router,
      unversioned: new Router(),
      authorize: authorizationChecker(emu, {}),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) => rawGet(port, `/2025-10-13${path}`, state);
    try {
      const boom = await get('/boom');
      expect(boom.status).toBe(500);
      expect(JSON.parse(boom.body)).toEqual({
        status: 500,
        code: 'INTERNAL_ERROR',
        message: 'The emulator hit an internal error',
      });
      expect(boom.body).not.toContain('kaboom');
      expect(logged).toContain('error');
      expect((await get('/ok')).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
