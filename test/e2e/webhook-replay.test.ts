/**
 * `svc webhook replay` as real processes, the way the issue tells it: an emulator (`svc emulator
 * start`, which writes the `local` profile) raises events while nothing listens; a listener (`svc
 * webhook listen`) starts and registers itself; `svc webhook replay --since` delivers each exactly
 * once to it, printed once with the ids of the original events. Also: ids as arguments, and the
 * plain refusal against the service (exit 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir, type LongRunningSvc } from '../helpers/spawn-svc.js';
import { lines, spawnListener } from '../integration/webhook/spawn-listener.js';
import { webhookReceiver } from '../integration/emulator/support.js';
import { createWebhookVerifier } from '../../src/crypto/webhook-signature.js';
import { join } from 'node:path';

interface Ready {
  baseUrl: string;
  webhookPublicKey: string;
  apiTokenId: string;
  apiClientSecret: string;
  fixtures: { cardId: string };
}

const configDir = tempConfigDir();
let emulator: LongRunningSvc;
let ready: Ready;

beforeAll(async () => {
  emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
  ready = JSON.parse(await emulator.firstLine) as Ready;
}, 20_000);
afterAll(() => emulator?.stop());

async function call(method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return res.json();
}
const setCard = (state: string) => call('PATCH', `${ready.baseUrl}/cards/${ready.fixtures.cardId}`, { state });
const logged = async (): Promise<{ id: string; delivery: string }[]> =>
  (await call('GET', `${new URL(ready.baseUrl).origin}/_emulator/webhooks/events`)).data;

describe('svc webhook replay (spawned)', () => {
  it('events raised with no listener reach a listener started later, each printed once with its original id', async () => {
    await setCard('FROZEN');
    await setCard('ACTIVE');
    const raised = await logged();
    expect(raised.map((e) => e.delivery)).toEqual(['undelivered', 'undelivered']);

    const listener = await spawnListener(['--json', 'webhook', 'listen', '--port', '0'], configDir);
    try {
      const r = await runSvc(['webhook', 'replay', '--since', '1h'], { configDir });
      expect(r.stderr).toContain('Replayed 2 events');
      expect(r.code).toBe(0);
      expect(lines(r.stdout).map((l) => l.split(/\s+/)[2])).toEqual(raised.map((e) => e.id));

      const printed = await listener.waitForLines(2);
      expect(printed.map((l) => JSON.parse(l))).toMatchObject(
        raised.map((e) => ({ id: e.id, type: 'CARD.STATE_CHANGE', verified: true })),
      );

      // A second replay reaches the listener again, which knows those ids: nothing is printed twice.
      const again = await runSvc(['--json', 'webhook', 'replay', '--since', '1h'], { configDir });
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).data.map((e: { id: string }) => e.id)).toEqual(raised.map((e) => e.id));
    } finally {
      expect(await listener.stop()).toBe(0);
    }
    expect(lines(listener.stdout())).toHaveLength(2);
    expect(listener.stderr()).toMatch(/\b2 duplicates dropped/);
  }, 40_000);

  it('takes ids as arguments and --to', async () => {
    const [first, second] = await logged();
    const hooks = await webhookReceiver();
    try {
      const r = await runSvc(['webhook', 'replay', second!.id, first!.id, '--to', hooks.url], { configDir });
      expect(r.code).toBe(0);
      expect(hooks.deliveries.map((d) => d.body.id)).toEqual([first!.id, second!.id]);
    } finally {
      await hooks.close();
    }
  });

  it('against the service it says plainly that replay is emulator-only (exit 2), and an unknown id exits 1', async () => {
    const remote = await runSvc(['--base-url', 'https://api.service.example', 'webhook', 'replay', '--since', '1h'], {
      configDir,
    });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/works only against the svc emulator/);
    const unknown = await runSvc(['webhook', 'replay', 'Webhook:00000000-0000-4000-8000-00000000beef'], { configDir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Webhook:00000000-0000-4000-8000-00000000beef');
  });

  it('svc emulator start --event-log N keeps the newest N events; a bad N exits 2', async () => {
    const small = startSvc(['--json', 'emulator', 'start', '--port', '0', '--no-profile', '--event-log', '1'], {
      configDir: tempConfigDir(),
    });
    try {
      const other = JSON.parse(await small.firstLine) as Ready;
      const auth = `Basic ${Buffer.from(`${other.apiTokenId}:${other.apiClientSecret}`).toString('base64')}`;
      for (const state of ['FROZEN', 'ACTIVE']) {
        await fetch(`${other.baseUrl}/cards/${other.fixtures.cardId}`, {
          method: 'PATCH',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ state }),
        });
      }
      const res = await fetch(`${new URL(other.baseUrl).origin}/_emulator/webhooks/events`, {
        headers: { authorization: auth },
      });
      const body = (await res.json()) as { data: unknown[]; limit: number };
      expect(body.limit).toBe(1);
      expect(body.data).toHaveLength(1);
    } finally {
      await small.stop();
    }
    const bad = await runSvc(['emulator', 'start', '--port', '0', '--no-profile', '--event-log', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--event-log must be an integer from 1 to 100000');
  }, 20_000);
});

describe("svc webhook replay --store (spawned, from the listener's journal)", () => {
  it('re-forwards a delivery the app failed, byte for byte and signed by the emulator; journal flags with emulator selectors exit 2', async () => {
    const failing = await webhookReceiver(() => 500);
    const fixed = await webhookReceiver();
    const store = join(tempConfigDir(), 'seen.json');
    const listener = await spawnListener(
      ['--json', 'webhook', 'listen', '--port', '0', '--store', store, '--forward-to', failing.url],
      configDir,
    );
    try {
      await setCard('FROZEN');
      await failing.waitFor(1, 10_000);
      const id = failing.deliveries[0]!.body.id as string;
      const deadline = Date.now() + 10_000;
      while (!listener.stderr().includes('kept in the --store journal') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(listener.stderr()).toMatch(new RegExp(`forwarding ${id} to .* failed: 500 .*kept in the --store journal`));

      // Still failing where it was forwarded: exit 1, saying so.
      const down = await runSvc(['webhook', 'replay', '--store', store, '--failed'], { configDir });
      expect(down.code).toBe(1);
      expect(down.stdout).toMatch(
        new RegExp(`^failed +CARD\\.STATE_CHANGE  ${id}  → ${failing.url}: 500 .*\\(verified, was failing 500 in `),
      );

      const up = await runSvc(['--json', 'webhook', 'replay', '--store', store, '--failed', '--to', fixed.url], {
        configDir,
      });
      expect(up.code).toBe(0);
      expect(JSON.parse(up.stdout).data).toMatchObject([
        { id, state: 'failed', verified: true, previous: { status: 500 }, forward: { url: fixed.url, status: 200 } },
      ]);
      const got = fixed.deliveries[0]!;
      expect(got.raw.equals(failing.deliveries[0]!.raw)).toBe(true);
      expect(createWebhookVerifier(ready.webhookPublicKey)(got.raw, got.headers['x-service-signature'] as string)).toBe(
        true,
      );

      const mixed = await runSvc(['webhook', 'replay', '--store', store, '--failed', '--since', '1h'], { configDir });
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toMatch(
        /--store, --failed replay from a listener's journal; --since select from the emulator's log/,
      );
    } finally {
      expect(await listener.stop()).toBe(0);
      await failing.close();
      await fixed.close();
    }
  }, 40_000);
});
