/**
 * Shared by the auth tests (integration and e2e): an emulator per test file, the SERVICE_* env
 * that points svc at it, and a recording proxy between the two. The proxy is how the tests see
 * what went over the wire (how many challenges, whether anything was sent at all) and how they
 * make the service vanish mid-flow, without any mock of the service itself.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/index.js';
import { openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { fakeDeps, type FakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { tempConfigDir } from '../../helpers/spawn-svc.js';

export interface Seen {
  method: string;
  /** Path below the base URL's origin, without the query. */
  path: string;
  signed: boolean;
}

export interface RecordingProxy {
  baseUrl: string;
  seen: Seen[];
  /** Requests whose path ends with suffix (and, if given, that are/aren't signed retries). */
  count(suffix: string, signed?: boolean): number;
  /** Called before forwarding; return 'drop' to cut the connection as if the server died. */
  intercept?: (s: Seen) => 'forward' | 'drop';
  /** Called with each upstream answer's status before it is relayed. */
  onAnswer?: (s: Seen, status: number) => void | Promise<void>;
  /** Where to forward (changes when an emulator is restarted on a new port). */
  target: string;
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const proxy: RecordingProxy = {
    baseUrl: '',
    seen: [],
    target,
    count: (suffix, signed) =>
      proxy.seen.filter((s) => s.path.endsWith(suffix) && (signed === undefined || s.signed === signed)).length,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // idle keep-alive sockets would hold close() open
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const seen: Seen = {
      method: req.method!,
      path: req.url!.split('?')[0]!,
      signed: req.headers['service-wallet-signature'] !== undefined,
    };
    proxy.seen.push(seen);
    if (proxy.intercept?.(seen) === 'drop') {
      req.socket.destroy();
      return;
    }
    const upstream = new URL(proxy.target);
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        void Promise.resolve(proxy.onAnswer?.(seen, answer.statusCode!)).then(() => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
      },
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${port}/2025-10-13`;
  return proxy;
}

/** The origin (scheme://host:port) of an emulator base URL, for the proxy to forward to. */
export const originOf = (baseUrl: string): string => new URL(baseUrl).origin;

export interface AuthEnv {
  emu: RunningEmulator;
  proxy: RecordingProxy;
  configDir: string;
  /** SERVICE_* pointing at the proxy (so every request is recorded). */
  env: NodeJS.ProcessEnv;
  deps(options?: FakeDepsOptions): FakeDeps;
  store(): Store;
  close(): Promise<void>;
}

export async function authEnv(options: EmulatorOptions = {}): Promise<AuthEnv> {
  const emu = await startEmulator({ port: 0, ...options });
  const proxy = await recordingProxy(originOf(emu.baseUrl));
  const configDir = tempConfigDir();
  const env: NodeJS.ProcessEnv = {
    SERVICE_CLI_CONFIG_DIR: configDir,
    SERVICE_BASE_URL: proxy.baseUrl,
    SERVICE_API_TOKEN_ID: emu.apiTokenId,
    SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
  };
  return {
    emu,
    proxy,
    configDir,
    env,
    deps: (o = {}) => fakeDeps({ ...o, env: { ...env, ...o.env } }),
    store: () => openStore({ dir: configDir }),
    close: async () => {
      await proxy.close();
      await emu.close();
    },
  };
}

/** Mode bits of every file under the store's sessions folder (key files must be 0600). */
export function sessionFileModes(configDir: string): number[] {
  const dir = join(configDir, 'sessions');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => statSync(join(dir, f)).mode & 0o777);
}

/** Asserts-by-return: the secrets that must never appear in any output. */
export function leakedSecrets(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => s.length > 0 && text.toLowerCase().includes(s.toLowerCase()));
}
