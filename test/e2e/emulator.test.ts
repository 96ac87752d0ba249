import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { useSpawnedEmulator } from '../helpers/spawned-emulator.js';

const spawned = useSpawnedEmulator();

describe('svc emulator start (spawned)', () => {
  it('prints one JSON ready line, writes the local profile, and every command then works with no flags', async () => {
    const configDir = tempConfigDir();
    const ready = await spawned.start(configDir);
    expect(Object.keys(ready).sort()).toEqual([
      'apiClientSecret',
      'apiTokenId',
      'baseUrl',
      'dashboardUrl',
      'fixtures',
      'otpSignerPublicKey',
      'webhookPublicKey',
    ]);
    expect(Object.keys(ready.fixtures).sort()).toEqual([
      'accountId',
      'cardId',
      'credentialId',
      'customerId',
      'email',
      'phoneNumber',
      'quoteId',
      'umaAddress',
    ]);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    // No SERVICE_* variables: the profile alone carries URL, credentials and the signer pin.
    const login = await runSvc(
      ['--json', 'otp', 'verify', '--credential', ready.fixtures.credentialId!, '--code', '000000'],
      { configDir },
    );
    expect(login.stderr).not.toContain('pinned'); // the emulator's signer was pinned by the profile already
    expect(login.code).toBe(0);
    const fund = await runSvc(['--json', 'sandbox', 'fund', ready.fixtures.accountId!, '--amount', '2500'], {
      configDir,
    });
    expect(fund.code).toBe(0);
    expect((JSON.parse(fund.stdout) as { balance: { amount: number } }).balance.amount).toBeGreaterThanOrEqual(2500);
  });

  it('leaves the store alone with --no-profile and stops cleanly with exit 0 on SIGTERM', async () => {
    const configDir = tempConfigDir();
    await spawned.start(configDir, { args: ['--no-profile'] });
    const list = await runSvc(['--json', 'config', 'list'], { configDir });
    expect(list.stdout).not.toContain('local');
    expect(await spawned.stop('SIGTERM')).toBe(0);
  });
});
