/**
 * End to end against the embedded emulator: `svc webhook listen` (the real CLI process, `local`
 * profile) registers itself, the emulator delivers signed card events at least once (twice, with
 * duplicateDeliveries), and the listener prints each exactly once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/index.js';
import { createClient, type ApiClient } from '../../../src/http/index.js';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { localApp, saveLocalProfile } from './helpers.js';
import { lines, spawnListener, type SpawnedListener } from './spawn-listener.js';

interface CardEventLine {
  id: string;
  type: string;
  timestamp: string;
  data: { id: string; state: string; stateReason?: string; fundingSources: string[] };
  verified: boolean;
}

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function emulator(
  options: EmulatorOptions = {},
): Promise<{ emu: RunningEmulator; api: ApiClient; configDir: string }> {
  const emu = await startEmulator({
    port: 0,
    cardIssuanceDelayMs: 50,
    webhookRetry: { initialMs: 50, maxMs: 200, timeoutMs: 3000 },
    ...options,
  });
  cleanup.push(() => emu.close());
  const configDir = tempConfigDir();
  saveLocalProfile(configDir, emu);
  const api = createClient({
    baseUrl: emu.baseUrl,
    auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
  });
  return { emu, api, configDir };
}

async function listener(args: string[], configDir: string): Promise<SpawnedListener> {
  const l = await spawnListener(['--json', 'webhook', 'listen', '--port', '0', ...args], configDir);
  cleanup.push(() => l.kill());
  return l;
}

const events = (l: SpawnedListener) => lines(l.stdout()).map((line) => JSON.parse(line) as CardEventLine);

/** Waits until `count` printed events match. */
async function waitFor(
  l: SpawnedListener,
  what: string,
  match: (e: CardEventLine) => boolean,
  count = 1,
): Promise<CardEventLine> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = events(l).filter(match);
    if (found.length >= count) return found[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no event ${what}\nstdout:\n${l.stdout()}\nstderr:\n${l.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function settled(emu: RunningEmulator): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (emu.testing.pendingWebhooks() > 0) {
    if (Date.now() > deadline) throw new Error(`${emu.testing.pendingWebhooks()} webhook deliveries still queued`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('svc webhook listen with the emulator', () => {
  it('sees each card event exactly once although every delivery arrives twice', async () => {
    const { emu, api, configDir } = await emulator({ duplicateDeliveries: true });
    const l = await listener(['--store', join(configDir, 'seen.log')], configDir);
    expect(l.stderr()).toMatch(
      /Registered http:\/\/127\.0\.0\.1:\d+\/webhooks as the webhook endpoint of .* \(PATCH \/config\)/,
    );
    expect(l.stderr()).toMatch(/key from profile "local"/);

    const { customerId, accountId } = emu.fixtures;
    const card = (
      await api.request<{ id: string; state: string }>({
        method: 'POST',
        path: '/cards',
        body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [accountId] },
      })
    ).body;
    expect(card.state).toBe('PROCESSING');
    const is = (state: string) => (e: CardEventLine) => e.data.id === card.id && e.data.state === state;
    await waitFor(l, 'ACTIVE (issued)', is('ACTIVE'));
    await api.request({ method: 'PATCH', path: `/cards/${card.id}`, body: { state: 'FROZEN' } });
    await waitFor(l, 'FROZEN', is('FROZEN'));
    await api.request({ method: 'PATCH', path: `/cards/${card.id}`, body: { state: 'ACTIVE' } });
    await waitFor(l, 'ACTIVE (unfrozen)', is('ACTIVE'), 2);
    // Rebind the card to the customer's other account: a funding-source change, not a state change.
    const own = (
      await api.request<{ data: Array<{ id: string }> }>({
        method: 'GET',
        path: `/internal-accounts?customerId=${encodeURIComponent(customerId)}`,
      })
    ).body.data;
    const other = own.find((a) => a.id !== accountId)!.id;
    await api.request({ method: 'PATCH', path: `/cards/${card.id}`, body: { fundingSources: [other] } });
    const rebound = await waitFor(
      l,
      'FUNDING_SOURCE_CHANGE',
      (e) => e.data.id === card.id && e.type === 'CARD.FUNDING_SOURCE_CHANGE',
    );
    expect(rebound.data.fundingSources).toEqual([other]);
    await api.request({ method: 'PATCH', path: `/cards/${card.id}`, body: { state: 'CLOSED' } });
    await waitFor(l, 'CLOSED', is('CLOSED'));

    // A cardholder whose name ends in 004 is still KYC-approved, but the issuer rejects the card.
    const holder = (
      await api.request<{ id: string }>({
        method: 'POST',
        path: '/customers',
        body: { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper 004' },
      })
    ).body;
    const accounts = (
      await api.request<{ data: Array<{ id: string }> }>({
        method: 'GET',
        path: `/internal-accounts?customerId=${encodeURIComponent(holder.id)}`,
      })
    ).body.data;
    const rejected = (
      await api.request<{ id: string }>({
        method: 'POST',
        path: '/cards',
        body: { cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [accounts[0]!.id] },
      })
    ).body;
    await waitFor(l, 'CLOSED (ISSUER_REJECTED)', (e) => e.data.id === rejected.id && e.data.state === 'CLOSED');

    await settled(emu); // every second copy has been answered too
    const code = await l.stop();
    expect(code).toBe(0); // a listener told to stop, stopped cleanly

    const seen = events(l);
    expect(seen.map((e) => [e.type, e.data.state, e.data.stateReason ?? null])).toEqual([
      ['CARD.STATE_CHANGE', 'ACTIVE', null],
      ['CARD.STATE_CHANGE', 'FROZEN', null],
      ['CARD.STATE_CHANGE', 'ACTIVE', null],
      ['CARD.FUNDING_SOURCE_CHANGE', 'ACTIVE', null],
      ['CARD.STATE_CHANGE', 'CLOSED', 'CLOSED_BY_PLATFORM'],
      ['CARD.STATE_CHANGE', 'CLOSED', 'ISSUER_REJECTED'],
    ]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(6);
    expect(seen.every((e) => e.verified === true && /^Webhook:/.test(e.id))).toBe(true);
    expect(l.stderr()).toMatch(/Stopped\. 6 received \(0 filtered\), 6 duplicates dropped, 0 rejected/);
  });

  it('a failing --forward-to target makes the emulator retry until the app accepts; printed once', async () => {
    const { emu, api, configDir } = await emulator();
    const app = await localApp([503, 503]); // down for the first two attempts
    cleanup.push(app.close);
    const l = await listener(['--forward-to', app.url], configDir);

    const { customerId, accountId } = emu.fixtures;
    const card = (
      await api.request<{ id: string }>({
        method: 'POST',
        path: '/cards',
        body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [accountId] },
      })
    ).body;
    const event = await waitFor(l, 'ACTIVE after retries', (e) => e.data.id === card.id);
    await settled(emu);
    await l.stop();

    const attempts = app.seen.map((r) => (JSON.parse(r.body.toString('utf8')) as { id: string }).id);
    expect(attempts).toEqual([event.id, event.id, event.id]); // the same delivery, retried by the emulator
    expect(events(l)).toHaveLength(1);
    expect(l.stderr().match(/forwarding Webhook:\S+ to .* failed: 503/g)).toHaveLength(2);
    expect(l.stderr()).toMatch(/Stopped\. 1 received .* 2 forward failures/);
  });
});

describe('a retried delivery overtaken by later ones', () => {
  it('is captioned by its own timestamp: the card went live, and has been FROZEN since', async () => {
    // Retries wait a virtual minute: the test decides when the failed delivery comes back.
    const { emu, api, configDir } = await emulator({
      webhookRetry: { initialMs: 60_000, maxMs: 60_000, timeoutMs: 3000 },
    });
    const app = await localApp([503]); // the first delivery (ACTIVE) fails once
    cleanup.push(app.close);
    const states = () =>
      app.seen.map((r) => (JSON.parse(r.body.toString('utf8')) as { data: { state: string } }).data.state);
    const l = await spawnListener(['webhook', 'listen', '--port', '0', '--forward-to', app.url], configDir);
    cleanup.push(() => l.kill());

    const { customerId, accountId } = emu.fixtures;
    const card = (
      await api.request<{ id: string }>({
        method: 'POST',
        path: '/cards',
        body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [accountId] },
      })
    ).body;
    const until = async (what: string, check: () => boolean) => {
      const deadline = Date.now() + 15_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`${what}\nstdout:\n${l.stdout()}\nstderr:\n${l.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until('the ACTIVE delivery failed', () => app.seen.length === 1 && /failed: 503/.test(l.stderr()));
    await api.request({ method: 'PATCH', path: `/cards/${card.id}`, body: { state: 'FROZEN' } });
    await until('FROZEN shown', () => /→ card frozen/.test(l.stdout()));
    emu.testing.advanceClock(60_000); // the ACTIVE's retry falls due, after the FROZEN
    await until('ACTIVE shown', () => /ACTIVE/.test(l.stdout()));
    await l.stop();

    expect(states()).toEqual(['ACTIVE', 'FROZEN', 'ACTIVE']);
    const out = l.stdout();
    expect(out).toContain(
      `→ card is live: svc cards reveal ${card.id} (delivered late: the card has been FROZEN since`,
    );
    expect(out).not.toContain('unfrozen'); // arrival order would have read it as an unfreeze
    expect(out.indexOf('FROZEN')).toBeLessThan(out.indexOf('ACTIVE'));
  });
});
