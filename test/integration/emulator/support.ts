/**
 * Shared by the emulator tests: a running emulator with a tiny HTTP client (Basic auth, raw or
 * JSON bodies, any headers), an OTP login done the way a client does it (our crypto functions),
 * and a webhook receiver that records deliveries and answers what the test scripts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createPublicKey, createVerify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/index.js';
import { createStamp } from '../../../src/crypto/stamp.js';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface CallOptions {
  /** A string is sent as exact bytes; an object as JSON. */
  body?: string | object;
  headers?: Record<string, string>;
  /** false: no Authorization header; a string: that header value. */
  auth?: false | string;
}

export interface TestEmulator {
  emu: RunningEmulator;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  close(): Promise<void>;
}

export function basicAuth(emu: Pick<RunningEmulator, 'apiTokenId' | 'apiClientSecret'>): string {
  return `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`;
}

export function caller(emu: RunningEmulator): TestEmulator['call'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== false) headers.authorization = options.auth ?? basicAuth(emu);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(emu.baseUrl + path, { method: method as 'GET', headers, body });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed as any, headers: res.headers, text };
  };
}

export async function testEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({
    port: 0,
    cardIssuanceDelayMs: 20,
    webhookRetry: { initialMs: 20, maxMs: 100, timeoutMs: 1000 },
    ...options,
  });
  return { emu, call: caller(emu), close: () => emu.close() };
}

/** The body of a 401/400 must have the spec's error shape; returns it for further checks. */
export function errorShape(answer: Answer): {
  status: number;
  code: string;
  message: string;
  reason?: string;
  details?: any;
} {
  const b = answer.body;
  if (!b || b.status !== answer.status || typeof b.code !== 'string' || typeof b.message !== 'string') {
    throw new Error(`not an error body for ${answer.status}: ${answer.text}`);
  }
  return b;
}

export interface LoggedIn {
  sessionId: string;
  privateKey: string;
  publicKey: string;
  session: Record<string, any>;
}

/** The signed-retry headers for a 202 challenge: a stamp by privateKey over its exact payloadToSign. */
export function signedHeaders(
  challenge: { payloadToSign: string; requestId: string },
  privateKey: string,
): Record<string, string> {
  return {
    'service-wallet-signature': createStamp(challenge.payloadToSign, privateKey),
    'request-id': challenge.requestId,
  };
}

/**
 * A suite-wide emulator with one OTP login, started before the suite's tests and closed after.
 * Call it at the top of a file or describe: `const { t, login } = useLoggedInEmulator()`; the two
 * objects read through to the started ones, so tests use them like plain values.
 */
export function useLoggedInEmulator(options: EmulatorOptions = {}): { t: TestEmulator; login: LoggedIn } {
  let started: TestEmulator | undefined;
  let session: LoggedIn | undefined;
  beforeAll(async () => {
    started = await testEmulator(options);
    session = await otpLogin(started); // follows verify's own PROCESSING answers
  }, 15_000);
  afterAll(() => started?.close());
  const get = suiteValue('useLoggedInEmulator');
  return {
    t: readThroughEmulator(() => get(started)),
    login: {
      get sessionId() {
        return get(session).sessionId;
      },
      get privateKey() {
        return get(session).privateKey;
      },
      get publicKey() {
        return get(session).publicKey;
      },
      get session() {
        return get(session).session;
      },
    },
  };
}

/**
 * A suite-wide emulator whose webhook endpoint is a local receiver, both started before the suite's
 * tests and closed after: `const { t, hooks } = useEmulatorWithWebhooks()` at the top of a file.
 */
export function useEmulatorWithWebhooks(options: EmulatorOptions = {}): { t: TestEmulator; hooks: Receiver } {
  let started: TestEmulator | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    started = await testEmulator(options);
    receiver = await webhookReceiver();
    const answer = await started.call('PATCH', '/config', { body: { webhookEndpoint: receiver.url } });
    if (answer.status !== 200) throw new Error(`PATCH /config answered ${answer.status}`);
  });
  afterAll(async () => {
    await started?.close();
    await receiver?.close();
  });
  const get = suiteValue('useEmulatorWithWebhooks');
  return {
    t: readThroughEmulator(() => get(started)),
    hooks: {
      get url() {
        return get(receiver).url;
      },
      get deliveries() {
        return get(receiver).deliveries;
      },
      waitFor: (...args) => get(receiver).waitFor(...args),
      close: () => get(receiver).close(),
    },
  };
}

/** A clock that all but stands still (a second of real time is a microsecond): only jumps move it. */
export const STILL = { timeScale: 1e-6 };

/**
 * Emulators and webhook receivers a test starts for itself, each closed after that test (the last
 * started first): `const { emulator, receiver } = usePerTestEmulators(STILL)` at the top of a file;
 * `defaults` are options every emulator() starts with, before its own.
 */
export function usePerTestEmulators(defaults: EmulatorOptions = {}): {
  emulator(options?: EmulatorOptions): Promise<TestEmulator>;
  receiver(answer?: Parameters<typeof webhookReceiver>[0]): Promise<Receiver>;
} {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return {
    async emulator(options = {}) {
      const t = await testEmulator({ ...defaults, ...options });
      open.push(() => t.close());
      return t;
    },
    async receiver(answer) {
      const r = await webhookReceiver(answer);
      open.push(() => r.close());
      return r;
    },
  };
}

/** Reads a value a suite's beforeAll sets, failing clearly when a test runs before it did. */
function suiteValue(owner: string): <T>(value: T | undefined) => T {
  return (value) => {
    if (value === undefined) throw new Error(`${owner}: used before its beforeAll ran`);
    return value;
  };
}

/** A TestEmulator that reads through to the one a suite's beforeAll starts. */
function readThroughEmulator(get: () => TestEmulator): TestEmulator {
  return {
    get emu() {
      return get().emu;
    },
    call: (...args) => get().call(...args),
    close: () => get().close(),
  };
}

/** challenge → HPKE-encrypt 000000 with a fresh TEK → verify → sign → AuthSession. */
export async function otpLogin(
  t: TestEmulator,
  credentialId = t.emu.fixtures.credentialId,
  type: 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP',
): Promise<LoggedIn> {
  const challenge = await t.call('POST', `/auth/credentials/${credentialId}/challenge`, { body: {} });
  const target = verifyOtpTargetBundle(challenge.body.otpEncryptionTargetBundle, t.emu.otpSignerPublicKey);
  const tek = generateKeyPair();
  const body = { type, encryptedOtpBundle: await encryptOtpBundle(target.targetPublic, '000000', tek.publicKey) };
  const first = await t.call('POST', `/auth/credentials/${credentialId}/verify`, { body });
  if (first.status !== 202) throw new Error(`verify: ${first.status} ${first.text}`);
  const raw = JSON.stringify(body);
  const headers = signedHeaders(first.body, tek.privateKey);
  let retry: Answer = await t.call('POST', `/auth/credentials/${credentialId}/verify`, { body: raw, headers });
  // With processingRetries the first retries answer 200 PROCESSING: re-send the identical request.
  while (retry.status === 200 && retry.body.status === 'PROCESSING') {
    retry = await t.call('POST', `/auth/credentials/${credentialId}/verify`, { body: raw, headers });
  }
  if (retry.status !== 200) throw new Error(`verify retry: ${retry.status} ${retry.text}`);
  return { sessionId: retry.body.id, privateKey: tek.privateKey, publicKey: tek.publicKey, session: retry.body };
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Resolves once `n` deliveries arrived (any status answered). */
  waitFor(n: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** A webhook endpoint; `answer(n)` picks the status for the n-th delivery (0-based), default 200. */
export async function webhookReceiver(
  answer: (n: number, d: Delivery) => number | 'hang' = () => 200,
): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const delivery = { headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) };
      const status = answer(deliveries.length, delivery);
      deliveries.push(delivery);
      waiters.splice(0).forEach((w) => w());
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    async waitFor(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${deliveries.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return deliveries;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once every webhook the emulator queued has been acknowledged: after it, an event that
 * was emitted has arrived, so "nothing arrived" means nothing was emitted (no sleeping on a hunch).
 */
export async function delivered(t: TestEmulator, timeoutMs = 5000): Promise<void> {
  await eventually(() => (t.emu.testing.pendingWebhooks() === 0 ? true : undefined), timeoutMs);
}

/** Polls until check() returns a value (not undefined), or fails after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/**
 * Checks X-Service-Signature with node:crypto alone (independent of src/crypto's verifier), literally
 * as the service's public API description says: decode the base64 signature from the header, hash the
 * raw body with SHA-256, verify with the public key. No other header form passes.
 */
export function nodeVerifyWebhook(publicKeyPem: string, d: Delivery): boolean {
  const header = d.headers['x-service-signature'];
  if (typeof header !== 'string') return false;
  const verifier = createVerify('SHA256');
  verifier.update(d.raw);
  return verifier.verify(createPublicKey(publicKeyPem), Buffer.from(header, 'base64'));
}

/**
 * An agent for `customerId` under `policy`, created and connected (its first device code redeemed,
 * as the agent would): its id and the Bearer value its requests carry.
 */
export async function connectAgent(
  t: Pick<TestEmulator, 'call'>,
  customerId: string,
  policy: Record<string, unknown>,
  name = 'Test bot',
): Promise<{ agentId: string; bearer: string }> {
  const made = await t.call('POST', '/agents', { body: { name, customerId, policy } });
  expect(made.status, made.text).toBe(201);
  const redeemed = await t.call('POST', `/agents/device-codes/${made.body.deviceCode.code}/redeem`, { auth: false });
  expect(redeemed.status, redeemed.text).toBe(200);
  return { agentId: made.body.agent.id, bearer: `Bearer ${redeemed.body.accessToken}` };
}
