/**
 * Shared pieces for the webhook integration tests: envelopes, signed POSTs, a recording receiver,
 * a local app for --forward-to, and the `local` profile an emulator start saves.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { request } from 'undici';
import {
  generateWebhookKeyPair,
  signWebhookBody,
  createWebhookVerifier,
} from '../../../src/crypto/webhook-signature.js';
import { openSeenIds, type SeenIds } from '../../../src/webhook/dedupe.js';
import type { WebhookEvent } from '../../../src/webhook/envelope.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { openStore } from '../../../src/store/index.js';
import { startServer, type RecordedRequest } from '../http/local-server.js';
import {
  createWebhookReceiver,
  type AcceptedEvent,
  type ReceiverOptions,
  type Rejection,
  type WebhookReceiver,
} from '../../../src/webhook/receiver.js';

export const keys = generateWebhookKeyPair();
export const otherKeys = generateWebhookKeyPair();

export function envelope(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    id: `Webhook:${randomUUID()}`,
    type: 'CARD.STATE_CHANGE',
    timestamp: new Date().toISOString(),
    data: { id: `Card:${randomUUID()}`, state: 'ACTIVE' },
    ...overrides,
  };
}

export interface Posted {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Posted> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** POSTs the JSON of `event`, signed with `privateKeyPem` (the service's key by default). */
export function deliver(url: string, event: unknown, privateKeyPem: string = keys.privateKeyPem): Promise<Posted> {
  const body = JSON.stringify(event);
  return post(url, body, { 'x-service-signature': signWebhookBody(body, privateKeyPem) });
}

export interface Recorder {
  receiver: WebhookReceiver;
  dedupe: SeenIds;
  events: AcceptedEvent[];
  duplicates: WebhookEvent[];
  rejections: Rejection[];
  stop(): Promise<void>;
}

/** A receiver on a free port verifying with `keys`, recording every callback. */
export async function startRecorder(
  options: Partial<ReceiverOptions> & { storePath?: string } = {},
): Promise<Recorder> {
  const dedupe = options.dedupe ?? openSeenIds({ storePath: options.storePath });
  const events: AcceptedEvent[] = [];
  const duplicates: WebhookEvent[] = [];
  const rejections: Rejection[] = [];
  const receiver = await createWebhookReceiver({
    port: 0,
    verify: createWebhookVerifier(keys.publicKeyPem),
    onEvent: (e) => {
      events.push(e);
    },
    onDuplicate: (e) => duplicates.push(e),
    onRejected: (r) => rejections.push(r),
    ...options,
    dedupe,
  });
  return {
    receiver,
    dedupe,
    events,
    duplicates,
    rejections,
    async stop() {
      await receiver.close();
      await dedupe.close();
    },
  };
}

export interface LocalApp {
  url: string;
  /** Every request it got, with its exact body bytes and headers. */
  seen: RecordedRequest[];
  server: Server;
  close(): Promise<void>;
}

/**
 * The integrator's app on 127.0.0.1, a --forward-to target: answers `statuses` in turn (200 after
 * them) and records every request it got, so a test sees what was forwarded and how it answered.
 */
export async function localApp(statuses: number[]): Promise<LocalApp> {
  const app = await startServer((_req, res) => {
    res.statusCode = statuses.shift() ?? 200;
    res.end('{}');
  });
  return { url: `${app.origin}/hook`, seen: app.requests, server: app.server, close: app.close };
}

/** What `svc emulator start` saves in configDir: a `local` profile for emu, made current. */
export function saveLocalProfile(configDir: string, emu: RunningEmulator): void {
  const store = openStore({ env: { SERVICE_CLI_CONFIG_DIR: configDir } });
  store.setProfile('local', {
    baseUrl: emu.baseUrl,
    apiTokenId: emu.apiTokenId,
    apiClientSecret: emu.apiClientSecret,
    webhookPublicKey: emu.webhookPublicKey,
  });
  store.setCurrentProfile('local');
}
