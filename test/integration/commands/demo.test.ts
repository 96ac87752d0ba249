/**
 * `svc demo` run() in-process: every step runs against its own emulator and a throw-away store, the
 * user's config folder is left untouched, the reveal URL is never shown, and a failing step is
 * reported by name with the cause rendered.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { ApiError, UsageError } from '../../../src/errors.js';
import { run as demo } from '../../../commands/demo/run.js';
import { run as fund } from '../../../commands/sandbox/fund.js';
import { openStore } from '../../../src/store/index.js';
import { DemoStepError, Narrator } from '../../../commands/demo/narrator.js';
import { maskUrl } from '../../../commands/demo/reveal-masked.js';
import { STEPS } from '../../../commands/demo/steps.js';
import { tempDir } from '../../helpers/temp-dir.js';

const TITLES = [
  'OTP verify',
  'Session list',
  'Session refresh',
  'Legacy refresh',
  'Sandbox fund',
  'Sandbox send',
  'Sandbox UMA receive',
  'Card webhooks',
  'Cards reveal',
  'Session revoke',
];

describe('svc demo', () => {
  it('walks every step, narrates it, and leaves the user config alone', async () => {
    const userConfig = tempDir('svc-user-config-');
    // A hostile shell: these must not redirect the demo away from its own emulator.
    const d = fakeDeps({
      env: {
        CI: 'true',
        SERVICE_CLI_CONFIG_DIR: userConfig,
        SERVICE_BASE_URL: 'http://127.0.0.1:9/2025-10-13',
        SERVICE_PROFILE: 'prod',
      },
    });
    await demo({ interactive: false, keep: false }, d);
    const out = d.stdout();
    expect(STEPS.map((s) => s.title)).toEqual(TITLES);
    for (const [i, title] of TITLES.entries()) {
      expect(out).toContain(`Step ${i + 1}/${TITLES.length}: ${title}`);
      expect(out).toContain(`✓ ${title}`);
    }
    expect(out).toContain('All 10 steps passed');
    expect(out).toMatch(/Funded InternalAccount:\S+ balance 1,000\.00 USD/);
    expect(out).toMatch(/status FAILED, reason COMPLIANCE_REJECTED/);
    expect(out.match(/✓ signature verified {2}CARD\.STATE_CHANGE/g)).toHaveLength(3);
    expect(d.stderr()).toMatch(/still processing \(attempt 2\)/i);
    // The reveal URL's token never appears, only the masked form.
    expect(out + d.stderr()).not.toMatch(/\/embed\/cards\/[A-Za-z0-9_-]{10,}/);
    expect(out).toMatch(
      /Obtained a panEmbedUrl for Card:\S+: http:\/\/127\.0\.0\.1:\d+\/embed\/… \(\d+ characters, hidden\)/,
    );
    expect(readdirSync(userConfig)).toEqual([]);
  }, 60_000);

  it('--json puts only the summary document on stdout', async () => {
    const d = fakeDeps({ env: { CI: 'true' }, globals: { json: true } });
    await demo({ interactive: false, keep: false }, d);
    const doc = JSON.parse(d.stdout());
    expect(doc.ok).toBe(true);
    expect(doc.steps.map((s: { title: string }) => s.title)).toEqual(TITLES);
    expect(d.stderr()).toContain('Step 1/10: OTP verify');
  }, 60_000);

  it('--interactive without a terminal is a usage error before anything starts', async () => {
    const d = fakeDeps({ env: { CI: 'true' } });
    await expect(demo({ interactive: true, keep: false }, d)).rejects.toMatchObject({ input: '--interactive' });
    expect(d.stdout()).toBe('');
  });

  it('--interactive on a terminal asks for the code and uses the answer', async () => {
    const d = fakeDeps({
      tty: true,
      answers: (message) => (message.startsWith('Enter the 6-digit code') ? '000000' : false),
    });
    await demo({ interactive: true, keep: false }, d);
    expect(d.asked.filter((q) => q.startsWith('Enter the 6-digit code'))).toHaveLength(1);
  }, 60_000);
});

describe('svc demo --keep', () => {
  it('writes the local profile to the real store and serves until interrupted', async () => {
    const userConfig = tempDir('svc-user-config-');
    const controller = new AbortController();
    const d = fakeDeps({ env: { CI: 'true', SERVICE_CLI_CONFIG_DIR: userConfig }, signal: controller.signal });
    const running = demo({ interactive: false, keep: true }, d);
    while (!d.stdout().includes('Press Ctrl-C')) {
      await Promise.race([running, new Promise((r) => setTimeout(r, 50))]);
    }
    const store = openStore({ dir: userConfig });
    expect(store.currentProfileName()).toBe('local');
    const { baseUrl } = store.getProfile('local')!;
    // Still serving: a command with no flags, against the kept profile, works.
    const after = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: userConfig } });
    const account = /Funded (InternalAccount:\S+)/.exec(d.stdout())![1];
    await fund({ account, amount: '1' }, after);
    expect(after.stdout()).toMatch(/^Funded /);
    controller.abort();
    await running;
    await expect(fetch(baseUrl!)).rejects.toThrow();
  }, 60_000);
});

describe('a failing step', () => {
  it('renders the cause with its code and field errors, then names the step (exit 1 class)', async () => {
    const d = fakeDeps();
    const narrator = new Narrator(d, d.io.stdout);
    const cause = new ApiError({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'bad',
      details: { errors: [{ field: 'amount', message: 'too big' }] },
    });
    const error = await narrator
      .step(5, 10, 'Sandbox fund', 'why', () => Promise.reject(cause))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemoStepError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as DemoStepError).message).toBe('Demo step "Sandbox fund" failed: bad');
    expect(d.stdout()).toContain('✗ Sandbox fund failed');
    expect(d.stderr()).toMatch(/INVALID_INPUT \(HTTP 400\)[\s\S]*- amount: too big/);
  });
});

it('maskUrl keeps the origin and hides the token', () => {
  expect(maskUrl('https://cards.example.com/embed/cards/SECRET-token')).toBe(
    'https://cards.example.com/embed/… (50 characters, hidden)',
  );
  expect(maskUrl('not a url')).toBe('(9 characters, hidden)');
});
