/**
 * `svc trigger --events`: the webhook types a run caused, from the emulator's event log. The
 * configured endpoint is not touched (it gets its deliveries as always), events raised with no
 * endpoint are reported too, and a base URL that is not the emulator is refused before any request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type TriggerOptions } from '../../../commands/trigger/run.js';
import { trigger as triggerSpec } from '../../../commands/trigger/verbs.js';
import { optionsWith } from '../../helpers/verb-options.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createWebhookVerifier } from '../../../src/crypto/webhook-signature.js';
import { UsageError } from '../../../src/errors.js';
import { rejected } from '../../helpers/caught.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { emulatorEnv } from './helpers.js';

let emu: RunningEmulator;
let app: Server;
let appUrl: string;
const received: { id: string; type: string; verified: boolean }[] = [];

const basic = (e: RunningEmulator) => `Basic ${Buffer.from(`${e.apiTokenId}:${e.apiClientSecret}`).toString('base64')}`;
async function config(e: RunningEmulator, body?: object): Promise<{ webhookEndpoint: string | null }> {
  const res = await fetch(`${e.baseUrl}/config`, {
    method: body ? 'PATCH' : 'GET',
    headers: { authorization: basic(e), 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { webhookEndpoint: string | null };
}

beforeAll(async () => {
  // Issuance is a second of emulator time: at 20x it is over before the command's first poll.
  emu = await startEmulator({ port: 0, timeScale: 20 });
  const verify = createWebhookVerifier(emu.webhookPublicKey);
  // "Your app": the endpoint configured before the run.
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const body = Buffer.concat(chunks);
        const envelope = JSON.parse(body.toString('utf8')) as { id: string; type: string };
        received.push({
          id: envelope.id,
          type: envelope.type,
          verified: verify(body, req.headers['x-service-signature'] as string),
        });
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
  await config(emu, { webhookEndpoint: appUrl });
});
afterAll(async () => {
  await emu.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const opts = (o: Partial<TriggerOptions>): TriggerOptions => optionsWith(triggerSpec, { events: true, ...o });
async function trigger(e: RunningEmulator, o: Partial<TriggerOptions>) {
  const d = fakeDeps({ env: emulatorEnv(e), globals: { json: true } });
  await run(opts(o), d);
  return JSON.parse(d.stdout()) as { events: string[]; resources: Record<string, string> };
}

describe('svc trigger --events', () => {
  it('reports the card events of the run; the configured endpoint keeps getting them, verifiable', async () => {
    const report = await trigger(emu, { scenario: 'card.frozen', wait: true });
    // PROCESSING → ACTIVE at issuance, then ACTIVE → FROZEN.
    expect(report.events).toEqual(['CARD.STATE_CHANGE', 'CARD.STATE_CHANGE']);
    expect((await config(emu)).webhookEndpoint).toBe(appUrl);
    const deadline = Date.now() + 5000;
    while (received.filter((r) => r.type === 'CARD.STATE_CHANGE').length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(received.filter((r) => r.type === 'CARD.STATE_CHANGE').length).toBeGreaterThanOrEqual(2);
    expect(received.every((r) => r.verified)).toBe(true);
  });

  it('identity scenarios report the verification and customer events of their own customer only', async () => {
    await trigger(emu, { scenario: 'kyc.review' }); // another customer's events, earlier
    const report = await trigger(emu, { scenario: 'kyc.review' });
    expect(report.events.sort()).toEqual(['CUSTOMER.KYC_PENDING', 'VERIFICATION.PENDING_MANUAL_REVIEW']);
  });

  it('events raised while no endpoint is set are reported too (the log keeps them)', async () => {
    const quiet = await startEmulator({ port: 0 });
    try {
      expect((await config(quiet)).webhookEndpoint).toBeUndefined();
      const report = await trigger(quiet, { scenario: 'kyb.rejected' });
      expect(report.events.sort()).toEqual(['CUSTOMER.KYB_REJECTED', 'VERIFICATION.REJECTED']);
    } finally {
      await quiet.close();
    }
  });

  it('needs the emulator: a remote base URL is refused before any request; a server without the log says so', async () => {
    const d = fakeDeps({ env: { ...emulatorEnv(emu), SERVICE_BASE_URL: 'http://sandbox.remote.invalid/2025-10-13' } });
    expect((await rejected(run(opts({ scenario: 'kyc.pending' }), d), UsageError)).input).toBe('--events');
    // A loopback server that is not the emulator: every path is a 404.
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":404,"code":"NOT_FOUND","message":"no such path"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        SERVICE_BASE_URL: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
        SERVICE_API_TOKEN_ID: 'id',
        SERVICE_API_CLIENT_SECRET: 'secret',
      };
      const error = await rejected(run(opts({ scenario: 'kyc.pending' }), fakeDeps({ env })), Error);
      expect(error.message).toContain('has no event log');
      expect(seen).toEqual(['GET /_emulator/clock']); // nothing created
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
