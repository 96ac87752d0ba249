/**
 * No credentials in clear. A base URL with plain http:// to a host other than this
 * machine is refused before any connection, with an error naming the fix; --allow-insecure-http (or
 * SERVICE_ALLOW_INSECURE_HTTP=1) allows it. Every address used reaches only a loopback recorder
 * (a `.invalid` host through HTTP_PROXY, or an IPv4-mapped loopback address), so even a client that
 * did connect would send nothing off this machine, and the recorder shows whether it tried.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InsecureTransportError } from '../../../src/errors.js';
import { createClient } from '../../../src/http/index.js';
import { runSvc, tempConfigDir } from '../../helpers/spawn-svc.js';

const REMOTE = 'http://api.service.invalid';
let recorder: { server: Server; connections: number; url: string } | undefined;
afterEach(async () => {
  await new Promise((resolve) => recorder?.server.close(resolve) ?? resolve(undefined));
  recorder = undefined;
});

/** A loopback "proxy" that counts connections and answers 502 to each. */
async function startRecorder() {
  const state = { connections: 0 };
  const server = createServer((socket: Socket) => {
    state.connections++;
    socket.on('error', () => {});
    socket.once('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recorder = {
    server,
    get connections() {
      return state.connections;
    },
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
  return recorder;
}

describe('credentials over plain http:// to another host', () => {
  it('Basic credentials and a wallet stamp are refused before any connection, naming the fix', async () => {
    const proxy = await startRecorder();
    const client = createClient({
      baseUrl: REMOTE,
      auth: { kind: 'basic', tokenId: 'tok', secret: 'clear-text-secret' },
      env: { HTTP_PROXY: proxy.url },
    });
    const basic = await client.request({ method: 'GET', path: '/customers' }).catch((e: unknown) => e);
    expect(basic).toBeInstanceOf(InsecureTransportError);
    expect((basic as Error).message).toBe(
      'Refusing to send the API credentials (HTTP Basic) over plain http:// to api.service.invalid: anyone on the network path could read it',
    );
    // The core names the setting; the CLI's hint names its flag (the spawned case below).
    expect(basic).toMatchObject({ input: 'baseUrl', reason: 'INSECURE_TRANSPORT', host: 'api.service.invalid' });
    expect((basic as InsecureTransportError).hint).toMatch(/https:\/\/.*SERVICE_ALLOW_INSECURE_HTTP=1/);
    const stamped = await client
      .request({
        method: 'POST',
        path: '/auth/sessions/S/refresh',
        body: {},
        headers: { 'Service-Wallet-Signature': 'x' },
      })
      .catch((e: unknown) => e);
    expect((stamped as Error).message).toContain('the API credentials (HTTP Basic) and a wallet signature');
    expect(proxy.connections).toBe(0);
  });

  it('svc api: exit 2 before connecting; with --allow-insecure-http the request goes out', async () => {
    const proxy = await startRecorder();
    // An IPv4-mapped IPv6 address is not a loopback name to svc, yet it only ever reaches this
    // machine (the recorder): the opt-in half of the test sends nothing anywhere else either.
    const env = {
      SERVICE_BASE_URL: proxy.url.replace('127.0.0.1', '[::ffff:127.0.0.1]'),
      SERVICE_API_TOKEN_ID: 'tok',
      SERVICE_API_CLIENT_SECRET: 'clear-text-secret',
    };
    const refused = await runSvc(['--json', 'api', 'GET', '/customers'], { env, configDir: tempConfigDir() });
    expect(refused.code).toBe(2);
    const error = JSON.parse(refused.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ type: 'usage', field: '--base-url' });
    expect(error.message).toContain('Refusing to send the API credentials (HTTP Basic) over plain http://');
    expect(error.hint).toContain('--allow-insecure-http');
    expect(proxy.connections).toBe(0);

    const allowed = await runSvc(['--allow-insecure-http', 'api', 'GET', '/customers'], {
      env,
      configDir: tempConfigDir(),
    });
    expect(allowed.code).toBe(1); // the recorder answers 502
    expect(proxy.connections).toBe(1);
    const byEnv = await runSvc(['api', 'GET', '/customers'], {
      env: { ...env, SERVICE_ALLOW_INSECURE_HTTP: '1' },
      configDir: tempConfigDir(),
    });
    expect(byEnv.code).toBe(1);
    expect(proxy.connections).toBe(2);
  });

  it('loopback and https need no opt-in', async () => {
    const proxy = await startRecorder();
    const local = createClient({
      baseUrl: proxy.url,
      auth: { kind: 'basic', tokenId: 't', secret: 'loopback-secret' },
    });
    const answer = await local.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    expect(answer).not.toBeInstanceOf(InsecureTransportError); // it reached the recorder (502)
    expect(proxy.connections).toBe(1);
  });
});
