/**
 * `svc trigger` run() with fake IO against a real emulator: the list (text and --json), a run's
 * summary and --json report, and the usage errors, which send nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../commands/trigger/run.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { SvcError, UsageError } from '../../../src/errors.js';
import { SCENARIOS } from '../../../src/trigger/catalog.js';
import { recipeFor } from '../../../src/trigger/run.js';
import { rejected } from '../../helpers/caught.js';
import { fakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { countingEnv, countingServer, emulatorEnv, triggerOptions as opts } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

const deps = (o: FakeDepsOptions = {}) => fakeDeps({ ...o, env: { ...emulatorEnv(emu), ...o.env } });

describe('svc trigger --list', () => {
  it('prints every scenario with its magic value and expected outcome', async () => {
    const d = deps();
    await run(opts({ list: true }), d);
    const lines = d.stdout().trim().split('\n');
    expect(lines).toHaveLength(SCENARIOS.length);
    expect(d.stdout()).toMatch(/kyc\.rejected +fullName=Rex Rejected 002 +→ kycStatus REJECTED/);
    expect(d.stdout()).toMatch(
      /uma\.compliance-fail +destination\.umaAddress=\$fail\.compliance\.usd@\S+ +→ status FAILED, failureReason COMPLIANCE_REJECTED/,
    );
  });

  it('--json: [{name, area, magic:{field,value}, expect, runnable}]', async () => {
    const d = deps({ globals: { json: true } });
    await run(opts({ list: true }), d);
    const list = JSON.parse(d.stdout()) as {
      name: string;
      area: string;
      magic: { field: string; value: string };
      expect: object;
      runnable: boolean;
    }[];
    expect(list.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
    expect(list.find((s) => s.name === 'transfer.pending-then-fail')).toEqual({
      name: 'transfer.pending-then-fail',
      area: 'transfer',
      magic: { field: 'accountInfo.accountNumber', value: '1234567005' },
      expect: { status: 'FAILED', failureReason: expect.any(String) },
      runnable: expect.any(Boolean),
    });
    expect(list.find((s) => s.name === 'kyc.pending')!.runnable).toBe(true);
  });
});

describe('svc trigger <scenario>', () => {
  it('summarises what the service answered and says it matches the spec', async () => {
    const d = deps();
    await run(opts({ scenario: 'kyc.unverified' }), d);
    expect(d.stdout()).toMatch(
      /^kyc\.unverified: fullName = Uma Unverified 003\n {2}customerId +Customer:[0-9a-f-]{36}\n {2}observed +status UNVERIFIED, kycStatus UNVERIFIED\n$/,
    );
    expect(d.stderr()).toContain("✓ As the spec's table says");
  });

  it('--json prints {scenario, magic, resources, observed, events}; the ids are real', async () => {
    const d = deps({ globals: { json: true } });
    await run(opts({ scenario: 'uma.pending-long' }), d);
    const report = JSON.parse(d.stdout());
    expect(Object.keys(report)).toEqual(['scenario', 'magic', 'resources', 'reused', 'observed', 'events']);
    expect(report.observed).toMatchObject({ status: 'PENDING', quoteStatus: 'PROCESSING' });
    const tx = await fetch(`${emu.baseUrl}/transactions/${report.resources.transactionId}`, {
      headers: { authorization: `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}` },
    });
    expect(((await tx.json()) as { status: string }).status).toBe('PENDING');
    expect(d.stderr()).toBe(''); // --json: no progress lines
  });

  it('bad names and unbuildable scenarios are refused before anything is sent', async () => {
    const server = await countingServer();
    try {
      const d = () => fakeDeps({ env: countingEnv(server) });
      const unknown = await rejected(run(opts({ scenario: 'card.melted' }), d()), UsageError);
      expect(unknown.message).toContain('card has: card.issued, card.issuer-rejected');
      expect((await rejected(run(opts(), d()), UsageError)).input).toBe('<scenario>');
      expect((await rejected(run(opts({ list: true, scenario: 'kyc.pending' }), d()), UsageError)).input).toBe(
        '--list',
      );
      // A scenario whose recipe this svc lacks is refused before anything is sent.
      const unbuildable = { ...SCENARIOS[0]!, name: 'future.thing', recipe: 'future' as never };
      expect(() => recipeFor(unbuildable)).toThrow(SvcError);
      expect(() => recipeFor(unbuildable)).toThrow(/cannot build future\.thing yet/);
      expect(server.count()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
