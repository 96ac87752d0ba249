import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type StartOptions } from '../../../../commands/emulator/start.js';
import { UsageError } from '../../../../src/errors.js';
import { startEmulator } from '../../../../src/emulator/index.js';
import { fakeDeps, type FakeDeps } from '../../../helpers/fake-deps.js';
import { basicAuth, caller, eventually } from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

// profile: false, so these runs never write the local profile into a store.
const defaults: StartOptions = {
  host: '127.0.0.1',
  port: '0',
  processingRetries: '0',
  sessionTtlSeconds: '900',
  duplicateDeliveries: false,
  cardIssuance: 'accept',
  timeScale: '1',
  detach: false,
  profile: false,
};

async function started(
  deps: FakeDeps,
  opts: Partial<StartOptions> = {},
): Promise<{ stop(): Promise<void>; done: Promise<void> }> {
  const controller = (deps as unknown as { controller: AbortController }).controller;
  const done = run({ ...defaults, ...opts }, deps);
  await eventually(() => (deps.stdout().includes('\n') ? true : undefined));
  return {
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

function depsWith(json: boolean): FakeDeps {
  const controller = new AbortController();
  const deps = fakeDeps({ globals: { json }, signal: controller.signal });
  return Object.assign(deps, { controller });
}

describe('svc emulator start', () => {
  it('--json prints exactly one ready line with the contract keys, serves, and stops on abort', async () => {
    const deps = depsWith(true);
    const statePath = join(tempDir('svc-emu-cmd-'), 'state.json');
    const server = await started(deps, { statePath });
    const lines = deps.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    const ready = JSON.parse(lines[0]!);
    expect(Object.keys(ready)).toEqual([
      'baseUrl',
      'dashboardUrl',
      'apiTokenId',
      'apiClientSecret',
      'webhookPublicKey',
      'otpSignerPublicKey',
      'fixtures',
    ]);
    // The areas' fixture keys in the order of features.ts: customers, auth, cards, quotes.
    expect(Object.keys(ready.fixtures)).toEqual([
      'accountId',
      'email',
      'phoneNumber',
      'customerId',
      'umaAddress',
      'credentialId',
      'cardId',
      'quoteId',
    ]);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/);
    // The dashboard on the emulator's own host and port, with a per-start token.
    expect(ready.dashboardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_dashboard\/\?token=[\w-]{32}$/);
    expect(new URL(ready.dashboardUrl).host).toBe(new URL(ready.baseUrl).host);
    expect(ready.otpSignerPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(ready.webhookPublicKey).toContain('BEGIN PUBLIC KEY');

    const call = caller(ready);
    expect((await call('GET', `/cards/${ready.fixtures.cardId}`)).body.state).toBe('ACTIVE');
    await server.stop();
    expect(deps.stdout().trim().split('\n')).toHaveLength(1);
    await expect(call('GET', '/config')).rejects.toThrow();

    // The state file carries the identity into the next start.
    const again = depsWith(true);
    const second = await started(again, { statePath });
    expect(JSON.parse(again.stdout()).apiClientSecret).toBe(ready.apiClientSecret);
    // …but not the dashboard's token: that is made at each start.
    expect(JSON.parse(again.stdout()).dashboardUrl).not.toBe(ready.dashboardUrl);
    await second.stop();
  });

  it('prints a human summary with the base URL, credentials, keys and fixtures', async () => {
    const deps = depsWith(false);
    const server = await started(deps);
    await eventually(() => (deps.stdout().includes('UMA address') ? true : undefined));
    const out = deps.stdout();
    for (const label of [
      'Emulator listening at http://127.0.0.1:',
      'Dashboard: http://127.0.0.1:',
      'API token id:',
      'API client secret:',
      'OTP signer public key',
      '-----BEGIN PUBLIC KEY-----',
      'EMAIL_OTP',
      'quote',
    ]) {
      expect(out).toContain(label);
    }
    expect(deps.stderr()).toContain('Ctrl-C');
    await server.stop();
    expect(deps.stderr()).toContain('stopped');
  });

  it.each([
    [{ port: '70000' }, '--port'],
    [{ port: 'abc' }, '--port'],
    [{ processingRetries: '-1' }, '--processing-retries'],
    [{ sessionTtlSeconds: '0' }, '--session-ttl'],
    [{ cardIssuance: 'maybe' }, '--card-issuance'],
  ])('usage error for %j', async (opts, field) => {
    await expect(run({ ...defaults, ...opts }, depsWith(true))).rejects.toSatisfy(
      (e: unknown) => e instanceof UsageError && e.input === field,
    );
  });

  it('--time-scale runs the emulator clock faster; a bad factor is a usage error naming the flag', async () => {
    const deps = depsWith(true);
    const server = await started(deps, { timeScale: '60' });
    const ready = JSON.parse(deps.stdout());
    const clock = await fetch(`${new URL(ready.baseUrl).origin}/_emulator/clock`, {
      headers: { authorization: basicAuth(ready) },
    });
    expect(await clock.json()).toMatchObject({ timeScale: 60 });
    await server.stop();
    for (const timeScale of ['0', '-2', 'fast', '1e3', '100001']) {
      await expect(run({ ...defaults, timeScale }, depsWith(true))).rejects.toSatisfy(
        (e: unknown) =>
          e instanceof UsageError && e.input === '--time-scale' && e.message.includes(JSON.stringify(timeScale)),
      );
    }
  });

  it('--transaction-limits sets the per-currency single-transaction maximum; a bad list is a usage error naming the flag', async () => {
    const deps = depsWith(true);
    const server = await started(deps, { transactionLimits: 'USD=5000,MXN=70000' });
    const call = caller(JSON.parse(deps.stdout()));
    const rates = await call('GET', '/exchange-rates');
    const max = Object.fromEntries(rates.body.data.map((r: any) => [r.sourceCurrency.code, r.maxSendingAmount]));
    // A currency left out keeps its default; one without a default follows USD at the rate table's rate.
    expect(max).toMatchObject({ USD: 5000, EUR: 10_000_000, MXN: 70_000, INR: 412_500, BRL: 27_500 });
    await server.stop();
    for (const transactionLimits of ['USD', 'usd=5', 'USD=0', 'USD=5,,EUR=1', 'USD=1.5']) {
      await expect(run({ ...defaults, transactionLimits }, depsWith(true))).rejects.toSatisfy(
        (e: unknown) => e instanceof UsageError && e.input === '--transaction-limits',
      );
    }
    // A currency the emulator does not know is named (a limit for it would never apply).
    await expect(run({ ...defaults, transactionLimits: 'USD=5,XYZ=7' }, depsWith(true))).rejects.toSatisfy(
      (e: unknown) => e instanceof UsageError && e.input === '--transaction-limits' && e.message.includes('XYZ'),
    );
    await expect(startEmulator({ port: 0, transactionLimits: { QQQ: 7 } })).rejects.toSatisfy(
      (e: unknown) => e instanceof UsageError && e.input === 'transactionLimits.QQQ' && e.message.includes('QQQ'),
    );
  });

  it('a port in use is a usage error naming --port 0', async () => {
    const deps = depsWith(true);
    const server = await started(deps);
    const port = new URL(JSON.parse(deps.stdout()).baseUrl).port;
    await expect(run({ ...defaults, port }, depsWith(true))).rejects.toSatisfy(
      (e: unknown) => e instanceof UsageError && /--port 0/.test(e.hint ?? ''),
    );
    await server.stop();
  });
});
