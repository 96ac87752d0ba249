/**
 * `svc config …` as a real process: set (secret from stdin, never echoed), get (masked), list
 * (current marked), use; the store stays 0700/0600; and a profile written by saveEmulatorProfile
 * lets commands run with no flags or SERVICE_* variables at all.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { openStore } from '../../src/store/index.js';
import { saveEmulatorProfile } from '../../commands/config/local-profile.js';

const SECRET = 'sk_sandbox_0123456789abcdefWXYZ';

describe('svc config (spawned)', () => {
  const dir = tempConfigDir();
  const svc = (args: string[], stdin?: string) => runSvc(args, { configDir: dir, stdin });

  it('set/get/list/use with the secret masked everywhere and the store private', async () => {
    expect((await svc(['config', 'set', 'base-url', 'http://127.0.0.1:4010'])).code).toBe(0);
    expect((await svc(['config', 'set', 'api-token-id', 'tok_sandbox'])).code).toBe(0);
    const set = await svc(['config', 'set', 'api-client-secret', '-'], `${SECRET}\n`);
    expect(set.code).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(SECRET);
    expect(set.stderr).toContain('****WXYZ');

    const get = await svc(['config', 'get', 'api-client-secret']);
    expect(get).toMatchObject({ code: 0, stdout: '****WXYZ\n' });
    expect((await svc(['config', 'get', 'base-url'])).stdout).toBe('http://127.0.0.1:4010/2025-10-13\n');

    expect((await svc(['--profile', 'staging', 'config', 'set', 'api-token-id', 'tok_staging'])).code).toBe(0);
    const list = await svc(['config', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\* default \(current\)$/m);
    expect(list.stdout).toMatch(/^ {2}staging$/m);
    expect(list.stdout).not.toContain(SECRET);

    const use = await svc(['config', 'use', 'staging']);
    expect(use.code).toBe(0);
    const json = JSON.parse((await svc(['--json', 'config', 'list'])).stdout);
    expect(json.current).toBe('staging');
    expect(JSON.stringify(json)).not.toContain(SECRET);

    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of readdirSync(dir)) {
        const st = statSync(join(dir, f));
        if (st.isFile()) expect(st.mode & 0o777, f).toBe(0o600);
      }
    }
  });

  it('bad keys and values exit 2; an unset key exits 1', async () => {
    expect((await svc(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(2);
    expect((await svc(['config', 'set', 'otp-signer', '04zz'])).code).toBe(2);
    expect((await svc(['config', 'get', 'nope'])).code).toBe(2);
    expect((await svc(['config', 'use', 'does-not-exist'])).code).toBe(2);
    const unset = await svc(['config', 'get', 'webhook-public-key']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('svc config set webhook-public-key');
  });
});

describe('the local emulator profile', () => {
  let emu: RunningEmulator;
  beforeAll(async () => (emu = await startEmulator({ port: 0 })));
  afterAll(() => emu.close());

  it('after saveEmulatorProfile, commands need no flags and no environment', async () => {
    const dir = tempConfigDir();
    saveEmulatorProfile(openStore({ dir }), emu);
    const fund = await runSvc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '100'], { configDir: dir });
    expect(fund.code).toBe(0);
    expect(fund.stdout).toMatch(/^Funded /);
    const list = await runSvc(['config', 'list'], { configDir: dir });
    expect(list.stdout).toMatch(/^\* local \(current\)$/m);
    expect(list.stdout).not.toContain(emu.apiClientSecret);
  });
});
