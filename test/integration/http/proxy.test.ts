/**
 * HTTPS_PROXY/HTTP_PROXY: requests to a remote host tunnel through the proxy (CONNECT); loopback
 * targets never do. The "proxy" here is a local server that tunnels every CONNECT to a local target,
 * so the remote host name is never resolved and nothing leaves 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/http/index.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const auth = { kind: 'basic' as const, tokenId: 't', secret: 's' };
let target: LocalServer | undefined;
let proxy: Server | undefined;

afterEach(async () => {
  await target?.close();
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  target = undefined;
  proxy = undefined;
});

async function startTunnelProxy(targetPort: number, connects: string[]): Promise<string> {
  proxy = createServer((_req, res) => {
    res.statusCode = 502;
    res.end();
  });
  proxy.on('connect', (req, clientSocket, head) => {
    connects.push(req.url ?? '');
    const upstream = connect(targetPort, '127.0.0.1', () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('proxies from the environment', () => {
  it('tunnels a remote base URL through HTTP_PROXY', async () => {
    target = await startServer((_req, res) => sendJson(res, 200, { via: 'proxy' }));
    const connects: string[] = [];
    const proxyUrl = await startTunnelProxy(target.port, connects);
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
      const connects: string[] = [];
      const proxyUrl = await startTunnelProxy(target.port, connects);
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
    const connects: string[] = [];
    const proxyUrl = await startTunnelProxy(target.port, connects);
    const client = createClient({ baseUrl: target.origin, auth, env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
    const res = await client.request({ method: 'GET', path: '/ping' });
    expect(res.body).toEqual({ direct: true });
    expect(connects).toEqual([]);
  });
});
