import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as replay, type ReplayOptions } from '../../../commands/webhook/replay.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { ApiError, SvcError, UsageError } from '../../../src/errors.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { rejected } from '../../helpers/caught.js';
import { nodeVerifyWebhook, STILL, usePerTestEmulators, type TestEmulator } from '../emulator/support.js';
import { countingEnv, countingServer, emulatorEnv, type CountingServer } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

const { emulator, receiver } = usePerTestEmulators(STILL);

let counting: CountingServer;
beforeAll(async () => (counting = await countingServer()));
afterAll(() => counting.close());

const setCard = (t: TestEmulator, state: 'FROZEN' | 'ACTIVE') =>
  t.call('PATCH', `/cards/${t.emu.fixtures.cardId}`, { body: { state } });

/** Ids of every logged event, oldest first (the emulator-only list endpoint). */
async function loggedIds(t: TestEmulator): Promise<string[]> {
  const res = await fetch(`${new URL(t.emu.baseUrl).origin}/_emulator/webhooks/events`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${t.emu.apiTokenId}:${t.emu.apiClientSecret}`).toString('base64')}`,
    },
  });
  return ((await res.json()) as { data: { id: string }[] }).data.map((e) => e.id);
}

const options = (o: Partial<ReplayOptions>): ReplayOptions => ({ ids: [], failed: false, ...o });

describe('svc webhook replay against the emulator', () => {
  it('delivers events raised while no endpoint was set, with their original ids and valid signatures', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    await setCard(t, 'ACTIVE');
    const ids = await loggedIds(t);
    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });

    const deps = fakeDeps({ env: emulatorEnv(t.emu) });
    await replay(options({ since: '1h' }), deps);
    expect(hooks.deliveries.map((d) => d.body.id)).toEqual(ids);
    for (const d of hooks.deliveries) expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
    const out = deps.stdout().trim().split('\n');
    expect(out).toHaveLength(2);
    out.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^delivered\\s+CARD\\.STATE_CHANGE\\s+${ids[i]}\\s+\\S+\\s+200$`)),
    );
    expect(deps.stderr()).toContain(`Replayed 2 events to ${hooks.url}: 2 delivered.`);
  });

  it('selects by id, by --type and by --since; --json prints {endpoint, data}', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    t.emu.testing.advanceClock(3 * 3600_000);
    await setCard(t, 'ACTIVE');
    const [older, newer] = await loggedIds(t);
    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    const replayed = async (o: Partial<ReplayOptions>) => {
      const deps = fakeDeps({ env: emulatorEnv(t.emu), globals: { json: true } });
      await replay(options(o), deps);
      const result = JSON.parse(deps.stdout());
      expect(result.endpoint).toBe(hooks.url);
      return result.data.map((e: { id: string }) => e.id);
    };
    expect(await replayed({ ids: [older!] })).toEqual([older]);
    expect(await replayed({ since: '2h' })).toEqual([newer]);
    expect(await replayed({ type: 'CARD.STATE_CHANGE' })).toEqual([older, newer]);
    // Event type names in any case, and FAMILY.*, as webhook listen --events reads them.
    expect(await replayed({ type: 'card.state_change' })).toEqual([older, newer]);
    expect(await replayed({ type: 'Card.*' })).toEqual([older, newer]);
    expect(await replayed({ type: 'CUSTOMER.KYC_APPROVED, CARD.FUNDING_SOURCE_CHANGE' })).toEqual([]);
    expect(await replayed({ ids: [newer!, older!], since: '2h' })).toEqual([newer]);
    expect(hooks.deliveries.map((d) => d.body.id)).toEqual([
      ...[older, newer],
      ...[older, newer],
      ...[older, newer],
      ...[older, newer],
      newer,
    ]);
  });

  it('--to delivers there, not to the configured endpoint; a 409 is reported as already processed', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    const configured = await receiver();
    const other = await receiver(() => 409);
    await t.call('PATCH', '/config', { body: { webhookEndpoint: configured.url } });
    const deps = fakeDeps({ env: emulatorEnv(t.emu) });
    // host:port/path, as webhook listen --forward-to takes it.
    await replay(options({ since: '1h', to: other.url.replace(/^http:\/\//, '') }), deps);
    expect(other.deliveries).toHaveLength(1);
    expect(configured.deliveries).toHaveLength(0);
    expect(deps.stdout()).toMatch(/^duplicate\s+CARD\.STATE_CHANGE/);
    expect(deps.stderr()).toContain('1 already processed (409)');
  });

  it('a failed first attempt is printed and exits 1, naming the event', async () => {
    const t = await emulator();
    await setCard(t, 'FROZEN');
    const [id] = await loggedIds(t);
    const down = await receiver(() => 503);
    const deps = fakeDeps({ env: emulatorEnv(t.emu) });
    const error = await rejected(replay(options({ ids: [id!], to: down.url }), deps), SvcError);
    expect(exitCodeFor(error)).toBe(1);
    expect(error.message).toContain(id);
    expect(deps.stdout()).toMatch(/^retrying\s+CARD\.STATE_CHANGE\s+\S+\s+\S+\s+503$/m);
  });

  it("an unknown id is the emulator's 404 naming it (exit 1); nothing is delivered", async () => {
    const t = await emulator();
    const hooks = await receiver();
    await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    const unknown = 'Webhook:00000000-0000-4000-8000-00000000beef';
    const error = await rejected(replay(options({ ids: [unknown] }), fakeDeps({ env: emulatorEnv(t.emu) })), ApiError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(error.message).toContain(unknown);
    expect(exitCodeFor(error)).toBe(1);
    expect(hooks.deliveries).toHaveLength(0);
  });
});

describe('refusals before any request (exit 2)', () => {
  async function refused(
    o: Partial<ReplayOptions>,
    env: NodeJS.ProcessEnv = countingEnv(counting),
  ): Promise<UsageError> {
    // A private store: a non-loopback base URL makes the command read the `local` profile.
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-replay-'), ...env } });
    const error = await rejected(replay(options(o), deps), UsageError);
    expect(exitCodeFor(error)).toBe(2);
    expect(counting.count()).toBe(0);
    expect(deps.stdout()).toBe('');
    return error;
  }

  it('a remote base URL: replay is emulator-only, said plainly', async () => {
    // Any request would go through the proxy, which counts it: it must see none.
    const error = await refused(
      { since: '1h' },
      {
        ...countingEnv(counting),
        SERVICE_BASE_URL: 'https://api.service.example',
        HTTPS_PROXY: new URL(counting.baseUrl).origin,
      },
    );
    expect(error.message).toMatch(/works only against the svc emulator/);
    expect(error.message).toContain('no endpoint to list or resend webhook events');
    expect(error).toMatchObject({ input: 'baseUrl', reason: 'NOT_EMULATOR' });
  });

  it.each([
    [{}, '<Webhook:id>', /say which events/],
    [{ ids: ['Card:0000'] }, '<Webhook:id>', /Webhook:<uuid>; got "Card:0000"/],
    [{ since: 'yesterday' }, '--since', /--since must be a span like 30m/],
    [{ since: '2026-11-26T09:00:00' }, '--since', /--since/], // a time of day without its zone
    [
      { type: 'CARD.STATE_CHANGD' },
      '--type',
      /unknown event type "CARD.STATE_CHANGD"; did you mean CARD.STATE_CHANGE\?/,
    ],
    [
      { type: 'CARD.NOPE' },
      '--type',
      /unknown event type "CARD.NOPE"; known: CARD.STATE_CHANGE, CARD.FUNDING_SOURCE_CHANGE/,
    ],
    [{ type: ' , ' }, '--type', /at least one event type/],
    [{ since: '1h', to: 'ftp://example.com/x' }, '--to', /http or https URL/],
  ] as const)('%j → %s', async (o, field, message) => {
    const error = await refused(o as Partial<ReplayOptions>);
    expect(error.input).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('every bad argument at once', async () => {
    const error = await refused({ ids: ['nope'], since: 'soon', type: 'NOPE', to: 'ftp://x' });
    expect(error.input).toBe('<Webhook:id>, --type, --since, --to');
    expect(error.message).toMatch(/^4 arguments need fixing/);
  });
});
