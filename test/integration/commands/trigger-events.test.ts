/**
 * `svc trigger --events`: the webhook types a run caused, seen by a receiver svc puts in front of
 * the endpoint that was set. That endpoint still gets every delivery, byte for byte and verifiable,
 * and is put back afterwards; a remote base URL is refused before anything is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type TriggerOptions } from '../../../commands/trigger/run.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createWebhookVerifier } from '../../../src/crypto/webhook-signature.js';
import { ApiError, UsageError } from '../../../src/errors.js';
import { rejected } from '../../helpers/caught.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { emulatorEnv } from './helpers.js';

let emu: RunningEmulator;
let app: Server;
let appUrl: string;
const received: { id: string; type: string; verified: boolean }[] = [];

const basic = () => `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`;
async function config(body?: object): Promise<{ webhookEndpoint: string | null }> {
  const res = await fetch(`${emu.baseUrl}/config`, {
    method: body ? 'PATCH' : 'GET', headers: { authorization: basic(), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
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
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const body = Buffer.concat(chunks);
      const envelope = JSON.parse(body.toString('utf8')) as { id: string; type: string };
      received.push({ id: envelope.id, type: envelope.type, verified: verify(body, req.headers['x-service-signature'] as string) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
  await config({ webhookEndpoint: appUrl });
});
afterAll(async () => {
  await emu.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const opts = (o: Partial<TriggerOptions>): TriggerOptions => ({ list: false, wait: false, events: true, set: [], ...o });

describe('svc trigger --events', () => {
  it('reports the card events of the run; the configured endpoint got them too, verifiable, and is restored', async () => {
    const d = fakeDeps({ env: emulatorEnv(emu), globals: { json: true } });
    await run(opts({ scenario: 'card.frozen', wait: true }), d);
    const report = JSON.parse(d.stdout()) as { events: string[]; resources: { cardId: string } };
    // PROCESSING → ACTIVE at issuance, then ACTIVE → FROZEN.
    expect(report.events).toEqual(['CARD.STATE_CHANGE', 'CARD.STATE_CHANGE']);
    expect(received.filter((r) => r.type === 'CARD.STATE_CHANGE').length).toBeGreaterThanOrEqual(2);
    expect(received.every((r) => r.verified)).toBe(true);
    expect((await config()).webhookEndpoint).toBe(appUrl);
  });

  it('identity scenarios report the verification and customer events of their own customer', async () => {
    const d = fakeDeps({ env: emulatorEnv(emu), globals: { json: true } });
    await run(opts({ scenario: 'kyc.review' }), d);
    const report = JSON.parse(d.stdout()) as { events: string[] };
    expect(report.events.sort()).toEqual(['CUSTOMER.KYC_PENDING', 'VERIFICATION.PENDING_MANUAL_REVIEW']);
  });

  it('the endpoint is restored when the run fails after the receiver was put in front', async () => {
    // An issuer that rejects every card: card.frozen fails once the card is CLOSED, mid-run.
    const rejecting = await startEmulator({ port: 0, timeScale: 20, cardIssuance: 'reject' });
    try {
      const auth = { authorization: `Basic ${Buffer.from(`${rejecting.apiTokenId}:${rejecting.apiClientSecret}`).toString('base64')}`, 'content-type': 'application/json' };
      await fetch(`${rejecting.baseUrl}/config`, { method: 'PATCH', headers: auth, body: JSON.stringify({ webhookEndpoint: appUrl }) });
      const error = await rejected(run(opts({ scenario: 'card.frozen', wait: true }), fakeDeps({ env: emulatorEnv(rejecting) })), ApiError);
      expect(error.code).toBe('CARD_NOT_ACTIVE');
      const after = (await (await fetch(`${rejecting.baseUrl}/config`, { headers: auth })).json()) as { webhookEndpoint: string };
      expect(after.webhookEndpoint).toBe(appUrl);
    } finally {
      await rejecting.close();
    }
  });

  it('needs a loopback service: a remote base URL is refused before any request', async () => {
    const d = fakeDeps({ env: { ...emulatorEnv(emu), SERVICE_BASE_URL: 'http://sandbox.remote.invalid/2025-10-13' } });
    expect((await rejected(run(opts({ scenario: 'kyc.pending' }), d), UsageError)).field).toBe('--events');
  });
});
