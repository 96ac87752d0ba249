/**
 * `startListener` as a program uses it (src/webhook/listener.ts), without the CLI: its errors name
 * each input by the caller's label (the option key when none is given, never a CLI flag), and
 * everything it does arrives as one typed event stream, from taking over the emulator's endpoint to
 * giving it back on close.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseWebhookPublicKey } from '../../../src/crypto/webhook-signature.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { UsageError } from '../../../src/errors.js';
import { createClient } from '../../../src/http/index.js';
import { startListener, type ListenerEvent } from '../../../src/webhook/listener.js';
import { closedPort } from '../../helpers/closed-port.js';
import { keys } from './helpers.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

const key = parseWebhookPublicKey(keys.publicKeyPem);
const report = () => {};

describe('startListener', () => {
  it('names a bad input by its config key and a reason code, in no CLI words; nothing is left listening', async () => {
    const cases: Array<[Parameters<typeof startListener>[0], string, string, RegExp]> = [
      [{ key, forwardTo: 'ftp://app', report }, 'forwardTo', 'NOT_HTTP_URL', /^"ftp:\/\/app" is not an http\(s\) URL/],
      [{ key, route: ['CARD.*'], report }, 'route', 'NOT_A_ROUTE', /^must be TYPES=URL/],
      [
        { key, route: ['CARDS.*=http://127.0.0.1:1/x'], report },
        'route',
        'UNKNOWN_EVENT_TYPE',
        /^unknown event type "CARDS\.\*"/,
      ],
      [{ key, route: ['CARD.*=ftp://x'], report }, 'route', 'NOT_HTTP_URL', /^CARD\.\*=ftp:\/\/x: the target/],
    ];
    for (const [config, input, reason, message] of cases) {
      const error = await startListener(config).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ input, reason, message: expect.stringMatching(message) });
      expect((error as Error).message).not.toMatch(/--[a-z]/);
    }
    const down = `http://127.0.0.1:${await closedPort()}/hook`;
    await expect(startListener({ key, forwardTo: down, requireApps: true, report })).rejects.toMatchObject({
      input: 'forwardTo',
      reason: 'APP_UNREACHABLE',
      message: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/hook: connection refused/),
    });
  });

  it("reports the emulator's endpoint taken over, a delivery, and the endpoint given back on close, in order", async () => {
    const emu = await startEmulator({ port: 0, cardIssuanceDelayMs: 50 });
    cleanup.push(() => emu.close());
    const client = createClient({
      baseUrl: emu.baseUrl,
      auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
    });
    const seen: ListenerEvent[] = [];
    const listener = await startListener({
      port: 0,
      key: parseWebhookPublicKey(emu.webhookPublicKey),
      emulator: {
        access: { client: async () => client, profileKey: async () => emu.webhookPublicKey },
        intervalMs: 60_000,
        keyFromProfile: true,
      },
      report: (e) => void seen.push(e),
    });
    expect(listener.emulator).toEqual({ baseUrl: emu.baseUrl });
    const { customerId, accountId } = emu.fixtures;
    await client.request({
      method: 'POST',
      path: '/cards',
      body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [accountId] },
    });
    const deadline = Date.now() + 10_000;
    while (!seen.some((e) => e.kind === 'delivery')) {
      if (Date.now() > deadline) throw new Error(`no delivery: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const stats = await listener.close();

    expect(seen.map((e) => (e.kind === 'emulator' ? e.news : e.kind))).toEqual(['registered', 'delivery', 'cleared']);
    expect(seen[1]).toMatchObject({ kind: 'delivery', verified: true, event: { type: 'CARD.STATE_CHANGE' } });
    expect(stats).toMatchObject({ received: 1, rejected: 0 });
    const config = await client.request<{ webhookEndpoint?: string }>({ method: 'GET', path: '/config' });
    expect(config.body.webhookEndpoint ?? null).toBeNull();
  });
});
