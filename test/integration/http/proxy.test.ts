/**
 * HTTPS_PROXY/HTTP_PROXY: requests to a remote host tunnel through the proxy (CONNECT); loopback
 * targets never do. The "proxy" here is a local server that tunnels every CONNECT to a local target,
 * so the remote host name is never resolved and nothing leaves 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/http/index.js';
import { startTunnelProxy, type TunnelProxy } from '../../helpers/tunnel-proxy.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const auth = { kind: 'basic' as const, tokenId: 't', secret: 's' };
let target: LocalServer | undefined;
let proxy: TunnelProxy | undefined;

afterEach(async () => {
  await target?.close();
  await proxy?.close();
  target = undefined;
  proxy = undefined;
});

describe('proxies from the environment', () => {
  it('tunnels a remote base URL through HTTP_PROXY', async () => {
    target = await startServer((_req, res) => sendJson(res, 200, { via: 'proxy' }));
    proxy = await startTunnelProxy(target.port);
    const { connects, url: proxyUrl } = proxy;
    // Plain http:// to a remote host: allowed here explicitly (the client refuses it by default).
    const client = createClient({
      baseUrl: 'http://api.service.invalid',
      auth,
      env: { HTTP_PROXY: proxyUrl },
      allowInsecureHttp: true,
    });
    const res = await client.request({ method: 'GET', path: '/ping' });
    expect(res.body).toEqual({ via: 'proxy' });
    expect(connects).toEqual(['api.service.invalid:80']);
    expect(target.requests[0]!.url).toBe('/2025-10-13/ping');
  });

  // 0.0.0.0 reaches this machine on Linux and macOS, yet is not a loopback name, so only NO_PROXY
  // (read from the client's env, not process.env) keeps it off the proxy.
  it.runIf(process.platform !== 'win32')(
    'goes direct for a host listed in NO_PROXY, and through the proxy otherwise',
    async () => {
      target = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
      proxy = await startTunnelProxy(target.port);
      const { connects, url: proxyUrl } = proxy;
      const baseUrl = `http://0.0.0.0:${target.port}`;
      await createClient({ baseUrl, auth, env: { HTTP_PROXY: proxyUrl, no_proxy: 'example.com,0.0.0.0' } }).request({
        method: 'GET',
        path: '/direct',
      });
      expect(connects).toEqual([]);
      await createClient({ baseUrl, auth, env: { HTTP_PROXY: proxyUrl, NO_PROXY: 'example.com' } }).request({
        method: 'GET',
        path: '/proxied',
      });
      expect(connects).toEqual([`0.0.0.0:${target.port}`]);
      expect(target.requests.map((r) => r.url)).toEqual(['/2025-10-13/direct', '/2025-10-13/proxied']);
    },
  );

  it('never sends loopback traffic through the proxy', async () => {
    target = await startServer((_req, res) => sendJson(res, 200, { direct: true }));
    proxy = await startTunnelProxy(target.port);
    const { connects, url: proxyUrl } = proxy;
    const client = createClient({ baseUrl: target.origin, auth, env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
    const res = await client.request({ method: 'GET', path: '/ping' });
    expect(res.body).toEqual({ direct: true });
    expect(connects).toEqual([]);
  });
});
