/**
 * The built CLI through HTTP_PROXY: bin/svc runs the bundles, whose undici is assembled from its
 * own files (.ci/undici-core.cjs) rather than its index, so a proxy path the source tests cover can
 * still break here (it did: the tunnel's connect() was missing and every proxied command failed
 * with "request failed"). The base URL's host is not a loopback name, as loopback never goes
 * through a proxy; the proxy tunnels it to a server on 127.0.0.1, so the name is never resolved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { startTunnelProxy, type TunnelProxy } from '../helpers/tunnel-proxy.js';
import { sendJson, startServer, type LocalServer } from '../integration/http/local-server.js';

let target: LocalServer | undefined;
let proxy: TunnelProxy | undefined;

afterEach(async () => {
  await target?.close();
  await proxy?.close();
  target = proxy = undefined;
});

describe('svc through a proxy (spawned)', () => {
  it('sends an http:// remote base URL through HTTP_PROXY and prints the answer', async () => {
    target = await startServer((_req, res) =>
      sendJson(res, 200, { data: [{ id: 'Customer:via-proxy' }], hasMore: false }),
    );
    proxy = await startTunnelProxy(target.port);
    const r = await runSvc(
      ['--json', '--base-url', 'http://api.service.invalid', '--allow-insecure-http', 'api', 'GET', '/customers'],
      { env: { HTTP_PROXY: proxy.url, SERVICE_API_TOKEN_ID: 'token-id', SERVICE_API_CLIENT_SECRET: 'client-secret' } },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ data: [{ id: 'Customer:via-proxy' }], hasMore: false });
    expect(proxy.connects).toEqual(['api.service.invalid:80']);
    expect(target.requests.map((q) => [q.method, q.url, q.headers.host])).toEqual([
      ['GET', '/2025-10-13/customers', 'api.service.invalid'],
    ]);
  });

  it('a proxy that refuses the CONNECT is named with its status, not "request failed"', async () => {
    for (const status of [502, 407]) {
      proxy = await startTunnelProxy(1, { refuse: status });
      const r = await runSvc(['--base-url', 'https://api.service.invalid', 'api', 'GET', '/customers'], {
        env: { HTTPS_PROXY: proxy.url, SERVICE_API_TOKEN_ID: 'token-id', SERVICE_API_CLIENT_SECRET: 'client-secret' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `The proxy ${proxy.url} (HTTPS_PROXY) refused to open a tunnel to api.service.invalid: it answered CONNECT with HTTP ${status}`,
      );
      expect(r.stderr).toContain(status === 407 ? 'The proxy wants credentials' : 'list the host in NO_PROXY');
      expect(r.stderr).not.toContain('UND_ERR_ABORTED');
      expect(proxy.connects).toEqual(['api.service.invalid:443']);
      await proxy.close();
      proxy = undefined;
    }
  });
});
