/**
 * `svc api` as a real process against a real emulator: a signed session revoke round trip, the
 * 202 left unsigned with --no-sign, a POST built from fields, --json-lines, and the exit codes
 * (2 bad input before sending, 4 no session to sign with, 1 an API error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir, type SvcResult } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv()));
afterAll(() => t.close());

const svc = (args: string[], stdin?: string): Promise<SvcResult> =>
  runSvc(args, { env: t.env, configDir: t.configDir, stdin });

async function login(): Promise<{ id: string; accountId: string }> {
  const r = await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000']);
  expect(r.code).toBe(0);
  return activeSession(t)!;
}

describe('svc api (spawned)', () => {
  it('revokes a session with a signed DELETE; the session list no longer has it', async () => {
    const signer = await login();
    const target = await login();
    const r = await svc([
      'api',
      'DELETE',
      `/auth/sessions/${target.id}`,
      '--session',
      signer.id,
      '--show-payload',
      '--yes',
      '--include',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('ACTIVITY_TYPE_DELETE_SESSION');
    expect(r.stderr).toMatch(/^HTTP 204$/m);
    const list = await svc(['--json', 'api', 'GET', '/auth/sessions', '--query', `accountId=${signer.accountId}`]);
    const ids = (JSON.parse(list.stdout) as { data: { id: string }[] }).data.map((s) => s.id);
    expect(ids).toContain(signer.id);
    expect(ids).not.toContain(target.id);
  });

  it('--no-sign prints the challenge; --show-payload without a terminal needs --yes (exit 2, nothing sent)', async () => {
    const s = await login();
    const r = await svc(['--json', 'api', 'DELETE', `/auth/sessions/${s.id}`, '--no-sign']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      payloadToSign: expect.stringContaining(s.id),
      requestId: expect.stringMatching(/^Request:/),
    });
    const sent = t.proxy.seen.length;
    const ask = await svc(['api', 'DELETE', `/auth/sessions/${s.id}`, '--show-payload']);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('--yes');
    expect(t.proxy.seen.length).toBe(sent);
  });

  it('POST from fields and stdin; --paginate --json-lines prints one object a line', async () => {
    const created = await svc([
      '--json',
      'api',
      'POST',
      '/customers',
      '-f',
      'customerType=INDIVIDUAL',
      '-f',
      'fullName=Spawned 003',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const customer = JSON.parse(created.stdout);
    expect(customer.kycStatus).toBe('UNVERIFIED');
    const piped = await svc(
      ['--json', 'api', 'POST', '/customers', '--input', '-'],
      '{"customerType":"INDIVIDUAL","fullName":"Piped"}',
    );
    expect(JSON.parse(piped.stdout).kycStatus).toBe('APPROVED');
    const lines = await svc([
      'api',
      'GET',
      '/internal-accounts',
      '--query',
      `customerId=${customer.id}`,
      '--paginate',
      '--json-lines',
    ]);
    expect(lines.code).toBe(0);
    const accounts = lines.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(accounts.map((a) => a.balance.currency.code).sort()).toEqual(['EUR', 'USD']);
  });

  it("--paginate follows the emulator's real cursors: limit=1 pages give the same list as one big page", async () => {
    const whole = JSON.parse(
      (await svc(['--json', 'api', 'GET', '/customers/internal-accounts', '--query', 'limit=100'])).stdout,
    ) as { data: { id: string }[]; totalCount: number };
    expect(whole.data.length).toBeGreaterThan(2);
    const paged = await svc([
      '--json',
      'api',
      'GET',
      '/customers/internal-accounts',
      '--query',
      'limit=1',
      '--paginate',
    ]);
    expect(paged.code, paged.stderr).toBe(0);
    expect((JSON.parse(paged.stdout) as { id: string }[]).map((a) => a.id)).toEqual(whole.data.map((a) => a.id));
  });

  it('exit codes: 2 for bad fields, 4 with no session to sign, 1 for an API error', async () => {
    const bad = await svc(['api', 'POST', '/customers', '-f', 'novalue']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-f "novalue" is not key=value');

    const s = await login();
    // A config directory of its own (runSvc makes one): no session is held there.
    const fresh = await runSvc(['api', 'DELETE', `/auth/sessions/${s.id}`], {
      env: { ...t.env, SERVICE_CLI_CONFIG_DIR: tempConfigDir() },
    });
    expect(fresh.code).toBe(4);
    expect(fresh.stderr).toContain('no session is active');

    const missing = await svc(['--json', 'api', 'GET', '/customers/Customer:00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
  });

  it('--jq filters the answer like every other command, with string interpolation; a filter that does not fit is exit 1', async () => {
    const count = await svc(['api', 'GET', '/customers', '--jq', '.totalCount']);
    expect(count.code, count.stderr).toBe(0);
    expect(count.stdout).toMatch(/^\d+\n$/);
    const lines = await svc(['api', 'GET', '/customers', '--jq', '.data[] | "\\(.id) \\(.kycStatus)"']);
    expect(lines.stdout).toContain(`${t.emu.fixtures.customerId} APPROVED\n`);
    const paged = await svc(['api', 'GET', '/customers', '--paginate', '--jq', 'length']);
    expect(paged.stdout).toBe(`${JSON.parse(count.stdout)}\n`);
    // Found only after the request was answered: not the exit 2 of input refused before sending.
    const mismatch = await svc(['api', 'GET', '/customers', '--jq', '.totalCount.x']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('Cannot index number');
    const unclosed = await svc(['api', 'GET', '/customers', '--jq', '"\\(.id']);
    expect(unclosed.code).toBe(2);
    expect(unclosed.stderr).toContain('never closes');
  });
});
