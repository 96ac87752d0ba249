/**
 * Under --json, `svc api` prints only JSON on stdout. A 200 whose body is not
 * JSON is an error (exit 1, the JSON error on stderr, nothing on stdout); a JSON body of any kind
 * (a bare string included) still prints.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { startServer, type LocalServer } from '../integration/http/local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envFor(origin: string) {
  return { SERVICE_BASE_URL: origin, SERVICE_API_TOKEN_ID: 'tok', SERVICE_API_CLIENT_SECRET: 'json-only-secret' };
}

describe('svc --json api', () => {
  it('a 200 that is not JSON: exit 1, stdout empty, a JSON error naming the request', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const r = await runSvc(['--json', 'api', 'GET', '/customers'], {
      env: envFor(server.origin),
      configDir: tempConfigDir(),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ type: 'api', status: 200, code: 'INVALID_RESPONSE' });
    expect(error.message).toContain('GET /customers answered HTTP 200 with a body that is not JSON (text/html');
    // Without --json the body prints as it came.
    const plain = await runSvc(['api', 'GET', '/customers'], {
      env: envFor(server.origin),
      configDir: tempConfigDir(),
    });
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toBe('<html>maintenance</html>');
  });

  it('a JSON body that is a bare string still prints, as JSON', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('"ok"');
    });
    const r = await runSvc(['--json', 'api', 'GET', '/ping'], {
      env: envFor(server.origin),
      configDir: tempConfigDir(),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBe('ok');
  });
});
