/**
 * `svc trigger` as a real process: the --json list, a scenario run against a spawned-for-the-test
 * emulator, a production token refused (exit 1, nothing created), an unknown name (exit 2).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc } from '../helpers/spawn-svc.js';
import { emulatorEnv } from '../integration/commands/helpers.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

describe('svc trigger (spawned)', () => {
  it('--list --json covers every area', async () => {
    const r = await runSvc(['--json', 'trigger', '--list']);
    expect(r.code).toBe(0);
    const areas = new Set((JSON.parse(r.stdout) as { area: string }[]).map((s) => s.area));
    expect([...areas].sort()).toEqual([
      'auth',
      'beneficiary',
      'card',
      'card-transaction',
      'kyb',
      'kyc',
      'owner',
      'quote',
      'transfer',
      'uma',
    ]);
  });

  it('runs uma.compliance-fail and reports the failed transaction', async () => {
    const r = await runSvc(['--json', 'trigger', 'uma.compliance-fail'], { env: emulatorEnv(emu) });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      scenario: 'uma.compliance-fail',
      observed: { status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' },
      events: [],
    });
    expect(report.resources.quoteId).toMatch(/^Quote:/);
  });

  it('a card scenario with --wait follows issuance, then freezes the card', async () => {
    const r = await runSvc(['trigger', 'card.frozen', '--wait'], { env: emulatorEnv(emu) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/observed +status FROZEN, state FROZEN/);
  });

  it('options the scenario cannot use exit 2 with every reason, nothing sent; --set and --events reach the report', async () => {
    const r = await runSvc(
      [
        '--json',
        'trigger',
        'kyc.rejected',
        '--customer',
        'Customer:11111111-1111-4111-8111-111111111111',
        '--set',
        'customer.fullName=Jane Roe',
      ],
      { env: emulatorEnv(emu) },
    );
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stderr).error;
    expect(error).toMatchObject({ type: 'usage', field: '--customer,--set' });
    expect(error.problems).toEqual([
      expect.objectContaining({ field: '--customer', message: expect.stringContaining('kyc.rejected cannot reuse') }),
      expect.objectContaining({ field: '--set', message: expect.stringContaining('keep the last 3 characters "002"') }),
    ]);

    const ok = await runSvc(
      ['--json', 'trigger', 'kyc.rejected', '--set', 'customer.fullName=Jane Roe 002', '--events'],
      { env: emulatorEnv(emu) },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      magic: { value: 'Jane Roe 002' },
      reused: [],
      observed: { kycStatus: 'REJECTED' },
    });
  });

  it('an unknown scenario exits 2', async () => {
    const r = await runSvc(['trigger', 'kyc.maybe'], { env: emulatorEnv(emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kyc has: kyc.pending');
  });

  it("a service without a scenario's endpoint (the emulator's unknown-route 404) is named as such", async () => {
    // A sandbox that has the send probe (404 QUOTE_NOT_FOUND) but no other route, as an older service would.
    const older = createServer((req, res) => {
      req.resume();
      const body = req.url!.endsWith('/sandbox/send')
        ? { status: 404, code: 'QUOTE_NOT_FOUND', message: 'no such quote' }
        : { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'No route', details: { route: 'UNKNOWN' } };
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(older.address() as AddressInfo).port}/2025-10-13`;
      const env = { SERVICE_BASE_URL: baseUrl, SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 'secret' };
      const r = await runSvc(['trigger', 'kyc.pending'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`The service at ${baseUrl} does not offer POST /customers`);
    } finally {
      await new Promise<void>((resolve) => older.close(() => resolve()));
    }
  });

  describe('against production', () => {
    let server: Server;
    let created = 0;
    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        if (!req.url!.includes('/sandbox/')) created++;
        res
          .writeHead(req.url!.includes('/sandbox/') ? 403 : 201, { 'content-type': 'application/json' })
          .end('{"status":403,"code":"FORBIDDEN","message":"not in production"}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('refuses with exit 1 and says the token is a production one; nothing is created', async () => {
      const env = {
        SERVICE_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        SERVICE_API_TOKEN_ID: 'prod',
        SERVICE_API_CLIENT_SECRET: 'prod-secret',
      };
      const r = await runSvc(['trigger', 'kyc.pending'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('production token');
      // The core's hint names no command; the CLI's, by the error's reason, does.
      expect(r.stderr).toContain('Hint: svc trigger only runs in the sandbox: use a sandbox token (svc config set');
      expect(created).toBe(0);
    });
  });
});
