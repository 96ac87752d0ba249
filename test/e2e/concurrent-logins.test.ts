/**
 * Eight `svc` processes logging in at the same moment, one config directory: every session key
 * must be stored (none lost to another process's write), every file 0600, the store readable.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

describe('concurrent svc processes', () => {
  it('eight simultaneous logins leave eight stored sessions', async () => {
    const configDir = tempConfigDir();
    const env = {
      SERVICE_BASE_URL: emu.baseUrl,
      SERVICE_API_TOKEN_ID: emu.apiTokenId,
      SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
    };
    const logins = await Promise.all(
      Array.from({ length: 8 }, () =>
        runSvc(['--json', 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'], {
          env,
          configDir,
        }),
      ),
    );
    for (const r of logins) expect(r.code, r.stderr).toBe(0);
    const ids = logins.map((r) => (JSON.parse(r.stdout) as { id: string }).id);
    expect(new Set(ids).size).toBe(8);

    const files = readdirSync(join(configDir, 'sessions'));
    expect(files).toHaveLength(8);
    for (const f of files) expect(statSync(join(configDir, 'sessions', f)).mode & 0o777).toBe(0o600);

    const list = await runSvc(['--json', 'session', 'list', '--account', emu.fixtures.accountId], { env, configDir });
    expect(list.code, list.stderr).toBe(0);
    const held = (JSON.parse(list.stdout) as { data: Array<{ id: string; keyHeld: boolean }> }).data
      .filter((s) => s.keyHeld)
      .map((s) => s.id);
    expect(held.sort()).toEqual([...ids].sort());
  });
});
