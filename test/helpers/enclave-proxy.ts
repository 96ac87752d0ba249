/**
 * A stand-in for the remote service in front of an emulator, for the OTP signer tests: it plays the
 * token's environment (as production, every /sandbox/ endpoint is 403, as the service answers a
 * production token) and the enclave that signs OTP target bundles: it re-signs each challenge's
 * bundle with a key of the test's choosing, or empties the signer fields as the remote sandbox
 * does. The data (the emulator's real target key) is kept, so the login still completes end to end.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { signOtpTargetData } from '../../src/crypto/otp-target-bundle.js';
import { hexToBytes } from '../../src/crypto/hex.js';

export interface EnclaveProxy {
  baseUrl: string;
  /** Which environment the API token belongs to, as /sandbox/ endpoints answer it. */
  environment: 'sandbox' | 'production';
  /** The enclave's private key (64 hex) re-signing bundles; 'unsigned' empties the signer fields; undefined passes them on. */
  signer?: string | 'unsigned';
  close(): Promise<void>;
}

function resign(body: Buffer, signer: string): Buffer {
  const answer = JSON.parse(body.toString('utf8')) as { otpEncryptionTargetBundle?: string };
  if (typeof answer.otpEncryptionTargetBundle !== 'string') return body;
  const outer = JSON.parse(answer.otpEncryptionTargetBundle) as { data: string };
  const data = JSON.parse(Buffer.from(hexToBytes(outer.data)).toString('utf8')) as Record<string, unknown>;
  answer.otpEncryptionTargetBundle =
    signer === 'unsigned'
      ? JSON.stringify({ ...outer, dataSignature: '', enclaveQuorumPublic: '' })
      : signOtpTargetData(signer, data);
  return Buffer.from(JSON.stringify(answer));
}

async function enclaveProxy(emulatorBaseUrl: string): Promise<EnclaveProxy> {
  const upstream = new URL(emulatorBaseUrl);
  const server: Server = createServer((req, res) => {
    if (proxy.environment === 'production' && req.url!.includes('/sandbox/')) {
      req.resume();
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end('{"status":403,"code":"FORBIDDEN","message":"Sandbox endpoints are not available in production"}');
      return;
    }
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body: Buffer = Buffer.concat(chunks);
          if (proxy.signer !== undefined && /\/challenge$/.test(req.url!) && answer.statusCode === 200) {
            body = resign(body, proxy.signer);
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode!, headers).end(body);
        });
      },
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: EnclaveProxy = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`,
    environment: 'sandbox',
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return proxy;
}

/**
 * An emulator with an enclave proxy in front, both started before the file's tests and closed after:
 * `const { emu, proxy } = useEnclaveProxy()` at the top of a file. Both read and write through to
 * the started ones, so tests use them as plain values (each sets the environment and signer it needs).
 */
export function useEnclaveProxy(): { emu: RunningEmulator; proxy: EnclaveProxy } {
  let emu: RunningEmulator | undefined;
  let proxy: EnclaveProxy | undefined;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    proxy = await enclaveProxy(emu.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
  });
  return { emu: readThrough(() => emu), proxy: readThrough(() => proxy) };
}

function readThrough<T extends object>(get: () => T | undefined): T {
  const target = () => {
    const value = get();
    if (value === undefined) throw new Error('useEnclaveProxy: used before its beforeAll ran');
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
  });
}
