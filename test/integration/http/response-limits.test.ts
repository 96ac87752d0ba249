/**
 * The client bounds what a server can make it read. An answer past the limit ends
 * with ResponseTooLargeError saying the server sent more than N bytes (not "no answer" nor "could not
 * reach"), an announced size past it is refused before reading, and a body that never finishes ends
 * at the timeout with a message saying the server answered but did not finish.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, ResponseTooLargeError } from '../../../src/errors.js';
import { createClient } from '../../../src/http/index.js';
import { runSvc, tempConfigDir } from '../../helpers/spawn-svc.js';
import { startServer, type LocalServer } from './local-server.js';

const auth = { kind: 'basic' as const, tokenId: 'tok', secret: 'limits-secret-value' };
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes 64 KiB chunks until the client goes away; counts what it wrote. */
function endless(written: { bytes: number }) {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!res.destroyed) {
        written.bytes += chunk.length;
        if (!res.write(chunk)) break;
      }
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  };
}

describe('answer bodies are bounded', () => {
  it('an endless answer stops at the limit with an error saying so', async () => {
    const written = { bytes: 0 };
    server = await startServer(endless(written));
    const client = createClient({ baseUrl: server.origin, auth, env: {}, maxResponseBytes: 1024 * 1024 });
    const error = await client.request({ method: 'GET', path: '/customers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/answered with more than 1 MiB; stopped reading/);
    expect((error as Error).message).not.toMatch(/No answer|Could not reach/);
    expect((error as ResponseTooLargeError).hint).toContain('SERVICE_MAX_RESPONSE_MB');
    // It stopped near the limit, not at the end of the server's patience.
    expect(written.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('an answer cut off part way (the connection dropped) is a NetworkError at once, not a hang or a half body', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data":[', () => res.socket?.destroy());
    });
    const client = createClient({ baseUrl: server.origin, auth, env: {}, timeoutMs: 60_000 });
    const error = await client.request({ method: 'GET', path: '/customers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain(server.origin);
    expect((error as Error).message).not.toMatch(/timed out|did not finish/);
  });

  it('an announced Content-Length past the limit is refused before the body is read', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 31) });
      res.write('{"data":[');
    });
    const client = createClient({ baseUrl: server.origin, auth, env: {} });
    const error = await client.request({ method: 'GET', path: '/customers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain('more than 16 MiB (it announced 2147483648 bytes)');
  });

  it('a body that never finishes: the timeout says the server answered, not that nothing came back', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const client = createClient({ baseUrl: server.origin, auth, env: {}, timeoutMs: 300 });
    const error = await client.request({ method: 'GET', path: '/customers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect((error as Error).message).toMatch(/answered HTTP 200 but had not finished sending its body within 300 ms/);
  });

  it('svc api: exit 1 and the limit named; SERVICE_MAX_RESPONSE_MB sets it', async () => {
    server = await startServer(endless({ bytes: 0 }));
    const env = {
      SERVICE_BASE_URL: server.origin,
      SERVICE_API_TOKEN_ID: 'tok',
      SERVICE_API_CLIENT_SECRET: 'limits-secret-value',
      SERVICE_MAX_RESPONSE_MB: '2',
    };
    const r = await runSvc(['api', 'GET', '/customers'], { env, configDir: tempConfigDir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('answered with more than 2 MiB');
    expect(r.stdout).toBe('');
    const bad = await runSvc(['api', 'GET', '/customers'], {
      env: { ...env, SERVICE_MAX_RESPONSE_MB: 'lots' },
      configDir: tempConfigDir(),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SERVICE_MAX_RESPONSE_MB must be a whole number');
  });
});
