/**
 * `svc webhook listen` and the local emulator's endpoint: it says which endpoint
 * it replaces and puts it back on exit; it notices, within its check interval, another listener
 * taking over and a new emulator (endpoint lost, new key), and says what happens or what to do;
 * `--events` is checked against the known types, case-insensitively, and said at start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createClient } from '../../../src/http/index.js';
import { runSvc, tempConfigDir } from '../../helpers/spawn-svc.js';
import { saveLocalProfile } from './helpers.js';
import { spawnListener, type SpawnedListener } from './spawn-listener.js';

const CHECK_MS = 200;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function emulator(port = 0): Promise<RunningEmulator> {
  const emu = await startEmulator({ port, webhookRetry: { initialMs: 50, maxMs: 200, timeoutMs: 3000 } });
  cleanup.push(() => emu.close());
  return emu;
}

async function listener(configDir: string, args: string[] = []): Promise<SpawnedListener> {
  const l = await spawnListener(['webhook', 'listen', '--port', '0', ...args], configDir, {
    SVC_WEBHOOK_CHECK_MS: String(CHECK_MS),
  });
  cleanup.push(() => l.kill());
  return l;
}

/** The emulator's webhook endpoint, or null when none is set (GET /config then leaves the field out). */
const endpointOf = async (emu: RunningEmulator) =>
  (
    await createClient({
      baseUrl: emu.baseUrl,
      auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
    }).request<{ webhookEndpoint?: string }>({ method: 'GET', path: '/config' })
  ).body.webhookEndpoint ?? null;

async function until(check: () => boolean, what: () => string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('svc webhook listen and the local emulator endpoint', () => {
  it('says which endpoint it replaces, and puts it back on exit; the replaced listener is told within its check interval', async () => {
    const emu = await emulator();
    const configDir = tempConfigDir();
    saveLocalProfile(configDir, emu);
    const first = await listener(configDir);
    expect(first.stderr()).toMatch(/Registered http:\/\/127\.0\.0\.1:\d+\/webhooks as the webhook endpoint/);
    expect(await endpointOf(emu)).toBe(first.url);

    const second = await listener(configDir);
    expect(second.stderr()).toContain(
      `replacing the emulator's webhook endpoint ${first.url} with ${second.url}; it is put back when this listener stops`,
    );
    await until(
      () => first.stderr().includes(`the emulator now delivers to ${second.url}, not to this listener`),
      () => `first listener never warned:\n${first.stderr()}`,
      CHECK_MS * 10,
    );
    expect(first.stderr()).toMatch(/run svc webhook listen again here to take the endpoint back/);

    const secondCode = await second.stop();
    expect(secondCode, second.stderr()).toBe(0);
    expect(second.stderr()).toContain(`Restored the emulator's webhook endpoint to ${first.url}`);
    expect(await endpointOf(emu)).toBe(first.url);
    await until(
      () => first.stderr().includes('the emulator delivers to this listener again'),
      () => first.stderr(),
      CHECK_MS * 10,
    );

    expect(await first.stop()).toBe(0);
    expect(first.stderr()).toContain("Cleared the emulator's webhook endpoint (none was set before)");
    expect(await endpointOf(emu)).toBeNull();
  }, 60_000);

  it('notices a new emulator (endpoint lost, new key): registers again and verifies with the new key', async () => {
    const old = await emulator();
    const port = Number(new URL(old.baseUrl).port);
    const configDir = tempConfigDir();
    saveLocalProfile(configDir, old);
    const l = await listener(configDir, ['--json']);
    await old.close();
    await until(
      () => /the emulator at .* is not answering/.test(l.stderr()),
      () => l.stderr(),
      CHECK_MS * 10,
    );

    const fresh = await emulator(port); // restarted without --state: no endpoint, a new webhook key
    expect(fresh.webhookPublicKey).not.toBe(old.webhookPublicKey);
    saveLocalProfile(configDir, fresh); // what `svc emulator start` does
    await until(
      () => l.stderr().includes('registered ' + l.url + ' again'),
      () => l.stderr(),
      CHECK_MS * 20,
    );
    await until(
      () => l.stderr().includes('now verifying with the new key from the profile'),
      () => l.stderr(),
      CHECK_MS * 20,
    );
    expect(await endpointOf(fresh)).toBe(l.url);

    // A delivery signed with the new key is verified and shown.
    const client = createClient({
      baseUrl: fresh.baseUrl,
      auth: { kind: 'basic', tokenId: fresh.apiTokenId, secret: fresh.apiClientSecret },
    });
    const sent = await client.request<{ id: string }>({ method: 'POST', path: '/sandbox/webhooks/test' });
    await until(
      () => l.stdout().includes(sent.body.id),
      () => `${l.stdout()}\n${l.stderr()}`,
    );
    expect(l.stderr()).not.toMatch(/rejected a request/);
  }, 60_000);

  it('--events: known types in any case, FAMILY.* for a family, said at start; an unknown name is exit 2 with a suggestion', async () => {
    const configDir = tempConfigDir();
    const bad = await runSvc(
      ['webhook', 'listen', '--port', '0', '--skip-verify', '--events', 'card.state_change,CARD.STATE_CHANGES'],
      { configDir },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--events: unknown event type "CARD.STATE_CHANGES"');
    expect(bad.stderr).toContain('Did you mean CARD.STATE_CHANGE?');

    const l = await listener(configDir, ['--skip-verify', '--events', 'card.state_change,outgoing_payment.*']);
    expect(l.stderr()).toMatch(
      /Showing only CARD\.STATE_CHANGE, OUTGOING_PAYMENT\.PENDING, OUTGOING_PAYMENT\.PENDING_AUTHORIZATION, .*OUTGOING_PAYMENT\.REFUND_FAILED \(other events are acknowledged and recorded\)/,
    );
  }, 60_000);
});
