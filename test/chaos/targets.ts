/**
 * The two servers under attack, each a real `svc` process (so its memory can be read from /proc):
 * `svc webhook listen` verifying with a test key, and `svc emulator start` with its fixtures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { generateWebhookKeyPair, signWebhookBody } from '../../src/crypto/webhook-signature.js';
import { SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import type { Target } from './attacks.js';

export interface Running extends Target {
  name: string;
  pid: number;
  /** SIGTERM; resolves with the exit code (null: killed by a signal, i.e. it had crashed or hung). */
  stop(): Promise<number | null>;
  stderr(): string;
}

const CRLF = '\r\n';
const LONG = 'x'.repeat(8000);

function spawnSvc(args: string[]): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: svcEnv(tempConfigDir()),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitFor<T>(read: () => T | undefined, what: () => string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 25));
  }
}

function stopper(child: ChildProcess, exited: Promise<number | null>): () => Promise<number | null> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
}

export async function startListener(): Promise<Running> {
  const keys = generateWebhookKeyPair();
  const key = createPrivateKey(keys.privateKeyPem);
  // stdout is drained by the test (a full pipe would hold every answer back, by design).
  const p = spawnSvc(['--json', 'webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem]);
  const url = await waitFor(
    () => /Listening for webhooks on (\S+)/.exec(p.err())?.[1],
    () => `listener not ready: ${p.err()}`,
  );
  const port = Number(new URL(url).port);
  const post = (body: Buffer, extra = '', signature = signWebhookBody(body, key)) =>
    Buffer.concat([
      Buffer.from(
        `POST /webhooks HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Content-Type: application/json${CRLF}X-Service-Signature: ${signature}${CRLF}Content-Length: ${body.length}${CRLF}${extra}${CRLF}`,
      ),
      body,
    ]);
  const get = (path: string) => Buffer.from(`GET ${path} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${CRLF}`);
  return {
    name: 'listener',
    port,
    pid: p.child.pid!,
    good: () =>
      post(
        Buffer.from(
          JSON.stringify({
            id: `Webhook:${randomUUID()}`,
            type: 'CARD.STATE_CHANGE',
            timestamp: new Date().toISOString(),
            data: { id: `Card:${randomUUID()}`, state: 'ACTIVE' },
          }),
        ),
      ),
    withBody: (body, extra) => post(body, extra),
    tricks: [
      get('/webhooks/../webhooks'),
      get('/%2e%2e/webhooks'),
      get('/webhooks%00'),
      get(`/${LONG}`),
      get('/webhooks/..%2f..%2fetc%2fpasswd'),
      get('/webhooks?x=%ZZ'),
    ],
    stop: stopper(p.child, p.exited),
    stderr: p.err,
  };
}

export async function startEmulator(): Promise<Running & { baseUrl: string }> {
  const p = spawnSvc(['--json', 'emulator', 'start', '--port', '0']);
  const line = await waitFor(
    () => (p.out().includes('\n') ? p.out().split('\n')[0] : undefined),
    () => `emulator not ready: ${p.err()}`,
  );
  const ready = JSON.parse(line!) as {
    baseUrl: string;
    apiTokenId: string;
    apiClientSecret: string;
    fixtures: { cardId: string };
  };
  const base = new URL(ready.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const auth = basic(ready.apiTokenId, ready.apiClientSecret);
  const get = (path: string, authorization = auth) =>
    Buffer.from(
      `GET ${prefix}${path} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Authorization: ${authorization}${CRLF}${CRLF}`,
    );
  const post = (body: Buffer, extra = '') =>
    Buffer.concat([
      Buffer.from(
        `POST ${prefix}/cards HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Authorization: ${auth}${CRLF}Content-Type: application/json${CRLF}Content-Length: ${body.length}${CRLF}${extra}${CRLF}`,
      ),
      body,
    ]);
  const secret = ready.apiClientSecret;
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
  return {
    name: 'emulator',
    baseUrl: ready.baseUrl,
    port: Number(base.port),
    pid: p.child.pid!,
    good: () => get(`/cards/${ready.fixtures.cardId}`),
    withBody: post,
    tricks: [
      get('/cards/..%2F..%2Fetc%2Fpasswd'),
      get('/cards/%00'),
      get('/cards/%ZZ'),
      get(`/cards/${LONG}`),
      get('/cards/Card:..%2F'),
      get('/../cards/x'),
      get('/cards/%F0%28%8C%BC'),
      get('/cards/x%2F..%2F..%2Fcustomers'),
      get('/cards/%2e%2e'),
    ],
    wrongCredentials: [
      get(`/cards/${ready.fixtures.cardId}`, basic(ready.apiTokenId, flip(secret, 0))),
      get(`/cards/${ready.fixtures.cardId}`, basic(ready.apiTokenId, flip(secret, secret.length - 1))),
      get(`/cards/${ready.fixtures.cardId}`, basic(ready.apiTokenId, '')),
      get(`/cards/${ready.fixtures.cardId}`, basic(flip(ready.apiTokenId, 0), secret)),
      get(`/cards/${ready.fixtures.cardId}`, 'Basic !!!not-base64'),
      get(`/cards/${ready.fixtures.cardId}`, `Bearer ${secret}`),
    ],
    stop: stopper(p.child, p.exited),
    stderr: p.err,
  };
}
