/**
 * `svc sandbox …` as a real process against an emulator started here: summaries, --json bodies, the
 * UMA magic senders, server errors with code and field errors (exit 1), and bad input refused with
 * exit 2 before any request (the base URL points at a server that counts requests).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { countingEnv, countingServer, emulatorEnv, type CountingServer } from '../integration/commands/helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
let counter: CountingServer;
beforeAll(async () => {
  [emu, counter] = await Promise.all([startEmulator({ port: 0 }), countingServer()]);
});
afterAll(() => Promise.all([emu.close(), counter.close()]));

const svc = (args: string[]) => runSvc(args, { env: emulatorEnv(emu) });
const ACCOUNT = 'InternalAccount:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01';
const QUOTE = 'Quote:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01';
/** uma-receive argv with good defaults and one flag overridden. */
function uma(override: Partial<Record<'sender' | 'receiver' | 'currency' | 'amount', string>>): string[] {
  const flags = {
    sender: '$success.usd@sandbox.example.com',
    receiver: '$bob@example.com',
    currency: 'USD',
    amount: '100',
    ...override,
  };
  return ['sandbox', 'uma-receive', ...Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v])];
}

describe('svc sandbox (spawned)', () => {
  it('fund prints the new balance; --json prints the InternalAccount', async () => {
    const text = await svc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '100000']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Funded InternalAccount:\S+ balance [\d,]+\.00 USD\n$/);
    const json = await svc(['--json', 'sandbox', 'fund', emu.fixtures.accountId, '--amount', '250']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: emu.fixtures.accountId,
      balance: { currency: { code: 'USD' } },
    });
  });

  it("works where undici cannot use its SIMD parser: the fallback, left out of the bundle, is loaded from undici's package", async () => {
    const r = await runSvc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'], {
      env: { ...emulatorEnv(emu), UNDICI_NO_WASM_SIMD: '1' },
    });
    expect(r.stderr).toBe('Added 0.05 USD (5 in the smallest unit).\n');
    expect(r.code).toBe(0);
  });

  it('needs no config store when the environment names the service and credentials (read-only CI home)', async () => {
    // A config "directory" that is a file: opening the store would fail, so success proves it was never opened.
    const notADir = join(tempDir('svc-ro-'), 'config');
    writeFileSync(notADir, 'not a directory');
    const r = await runSvc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'], {
      env: emulatorEnv(emu),
      configDir: notADir,
    });
    expect(r.stderr).toBe('Added 0.05 USD (5 in the smallest unit).\n');
    expect(r.code).toBe(0);
    // Without the credentials in the environment the profile is needed, and the broken store is reported.
    const { SERVICE_API_CLIENT_SECRET: _omitted, ...partial } = emulatorEnv(emu);
    const needsProfile = await runSvc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'], {
      env: partial,
      configDir: notADir,
    });
    expect(needsProfile.code).not.toBe(0);
  });

  it('a server 400 with field errors is rendered with code and each field, exit 1', async () => {
    const r = await svc([
      'sandbox',
      'send',
      '--quote',
      emu.fixtures.quoteId,
      '--currency',
      'USD',
      '--amount',
      '100000000001',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/INVALID_INPUT \(HTTP 400\)/);
    expect(r.stderr).toMatch(/- currencyAmount: .+/);
    expect(r.stderr).toMatch(/Hint: /);
  });

  it('a server 400 without field errors still shows its code; --json errors are JSON on stderr', async () => {
    const r = await svc(['--json', 'sandbox', 'send', '--quote', emu.fixtures.quoteId, '--currency', 'EUR']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ type: 'api', status: 400, code: 'INVALID_CURRENCY' });
  });

  it('send pays the fixture quote', async () => {
    const r = await svc(['sandbox', 'send', '--quote', emu.fixtures.quoteId, '--currency', 'USD']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Paid Quote:\S+ in USD: Transaction:\S+, status COMPLETED/);
  });

  it.each([
    ['success.usd', 'COMPLETED'],
    ['success.eur', 'COMPLETED'],
    ['pending.long.usd', 'PENDING'],
    ['fail.compliance.usd', 'FAILED'],
  ])('uma-receive from $%s@… is %s', async (scenario, status) => {
    const r = await svc([
      '--json',
      'sandbox',
      'uma-receive',
      '--sender',
      `$${scenario}@sandbox.example.com`,
      '--receiver',
      emu.fixtures.umaAddress,
      '--currency',
      'USD',
      '--amount',
      '1000',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status, receivedAmount: { amount: 1000, currency: { code: 'USD' } } });
  });
});

describe('svc sandbox bad input: exit 2 before any request', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'bad account id',
      ['sandbox', 'fund', 'InternalAccount:123', '--amount', '5'],
      /<account>: Expected an InternalAccount identifier/,
    ],
    [
      'a Quote id as account',
      ['sandbox', 'fund', QUOTE, '--amount', '5'],
      /<account>: Expected an InternalAccount identifier/,
    ],
    ['amount 0', ['sandbox', 'fund', ACCOUNT, '--amount', '0'], /--amount: Must be at least 1/],
    ['amount -1', ['sandbox', 'fund', ACCOUNT, '--amount', '-1'], /--amount: Must be at least 1; got -1/],
    ['amount 1.5', ['sandbox', 'fund', ACCOUNT, '--amount', '1.5'], /--amount: Expected a whole number/],
    [
      'amount too big',
      ['sandbox', 'fund', ACCOUNT, '--amount', '100000000001'],
      /--amount: Must be at most 100000000000/,
    ],
    ['amount missing', ['sandbox', 'fund', ACCOUNT], /--amount is required/],
    [
      'bad quote id',
      ['sandbox', 'send', '--quote', 'Quote:abc', '--currency', 'USD'],
      /--quote: Expected a Quote identifier/,
    ],
    [
      'currency US',
      ['sandbox', 'send', '--quote', QUOTE, '--currency', 'US'],
      /--currency: Expected a three-letter currency code/,
    ],
    [
      'send amount 1.5',
      ['sandbox', 'send', '--quote', QUOTE, '--currency', 'USD', '--amount', '1.5'],
      /--amount: Expected a whole number/,
    ],
    ['bad sender UMA', uma({ sender: 'alice@example.com' }), /--sender: Expected a UMA address/],
    ['bad receiver UMA', uma({ receiver: '$bob' }), /--receiver: Expected a UMA address/],
    ['uma currency US', uma({ currency: 'US' }), /--currency: Expected a three-letter/],
    ['uma amount 0', uma({ amount: '0' }), /--amount: Must be at least 1/],
  ];

  it.each(cases)('%s', async (_name, args, message) => {
    const r = await runSvc(args, { env: countingEnv(counter) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(counter.count()).toBe(0);
  });

  it('several bad flags are reported together, each named, in one exit 2', async () => {
    const r = await runSvc(
      ['--json', 'sandbox', 'send', '--quote', 'nope', '--currency', 'dollars', '--amount', '-5'],
      { env: countingEnv(counter) },
    );
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stderr).error;
    expect(error).toMatchObject({ type: 'usage', field: '--quote, --currency, --amount' });
    expect(error.message).toMatch(
      /^3 inputs need fixing:\n {2}- --quote: .+\n {2}- --currency: .+\n {2}- --amount: Must be at least 1; got -5\.$/,
    );
    expect(error.problems.map((p: { field: string }) => p.field)).toEqual(['--quote', '--currency', '--amount']);
    // In text, an argument is named as help shows it.
    const text = await runSvc(['sandbox', 'fund', 'nope', '--amount', '0'], { env: countingEnv(counter) });
    expect(text.stderr).toBe(
      'Error: 2 inputs need fixing:\n  - <account>: Expected an InternalAccount identifier like InternalAccount:<uuid>; got "nope".\n  - --amount: Must be at least 1; got 0.\n',
    );
    expect(counter.count()).toBe(0);
  });

  it('--json usage errors name the field', async () => {
    const r = await runSvc(['--json', 'sandbox', 'fund', ACCOUNT, '--amount', '-1'], { env: countingEnv(counter) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ type: 'usage', field: '--amount' });
    expect(counter.count()).toBe(0);
  });
});
