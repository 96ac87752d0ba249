/**
 * A wrong type in config.json is a store error naming the file
 * and every bad value (not a crash); a home svc cannot write is a store error naming
 * SERVICE_CLI_CONFIG_DIR; stricter permissions than 0700/0600 are kept, looser ones tightened; and
 * `--code -` reads stdin only after the challenge was sent.
 */
import { spawn } from 'node:child_process';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';
import { tempDir } from '../helpers/temp-dir.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

it('a value of the wrong type in config.json is a store error listing each one, not a crash', async () => {
  const configDir = tempConfigDir();
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: 42, apiClientSecret: ['s3cret-value'] } } }),
    { mode: 0o600 },
  );
  const r = await runSvc(['config', 'list'], { configDir });
  expect(r.code).toBe(1);
  expect(r.stderr).not.toMatch(/is not a function|TypeError/);
  expect(r.stderr).toContain(join(configDir, 'config.json'));
  expect(r.stderr).toMatch(/profiles\.default\.baseUrl \(must be a string\), profiles\.default\.apiClientSecret/);
  expect(r.stderr).not.toContain('s3cret-value');
});

it('a home that cannot hold the store is an error naming SERVICE_CLI_CONFIG_DIR, not a bare errno', async () => {
  const notAFolder = join(tempDir('svc-home-'), 'file');
  writeFileSync(notAFolder, '');
  const r = await runSvc(['--json', 'config', 'list'], { env: { HOME: notAFolder, SERVICE_CLI_CONFIG_DIR: '' } });
  expect(r.code).toBe(1);
  const { error } = JSON.parse(r.stderr) as { error: { type: string; message: string; hint: string } };
  expect(error.type).toBe('store');
  expect(error.message).toMatch(/^Could not create the store folder /);
  expect(error.message).not.toMatch(/^E[A-Z]+:/);
  expect(error.hint).toContain('SERVICE_CLI_CONFIG_DIR');
});

it.skipIf(process.getuid?.() === 0)(
  'a read-only home says permission denied and names SERVICE_CLI_CONFIG_DIR',
  async () => {
    const home = tempDir('svc-home-');
    chmodSync(home, 0o500);
    const r = await runSvc(['config', 'list'], {
      env: { HOME: home, SERVICE_CLI_CONFIG_DIR: '', XDG_CONFIG_HOME: '' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/permission denied/);
    expect(r.stderr).toContain('SERVICE_CLI_CONFIG_DIR');
  },
);

it('config list keeps deliberately stricter modes (0500 folder, 0400 file) and tightens looser ones', async () => {
  const configDir = tempConfigDir();
  expect((await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configDir })).code).toBe(0);
  const file = join(configDir, 'config.json');
  chmodSync(file, 0o400);
  chmodSync(configDir, 0o500);
  try {
    expect((await runSvc(['config', 'list'], { configDir })).code).toBe(0);
    expect(statSync(configDir).mode & 0o777).toBe(0o500);
    expect(statSync(file).mode & 0o777).toBe(0o400);
  } finally {
    chmodSync(configDir, 0o700);
  }
  chmodSync(file, 0o644);
  expect((await runSvc(['config', 'list'], { configDir })).code).toBe(0);
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

it('--code - reads stdin only after the challenge was sent, so an emailed code can be piped', async () => {
  const child = spawn(
    process.execPath,
    [SVC_BIN, 'otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '-'],
    {
      env: svcEnv(t.configDir, t.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    // The code "arrives" only once the challenge went out; before the fix svc waited for stdin first.
    const deadline = Date.now() + 10_000;
    while (t.proxy.count('/challenge') === 0) {
      if (Date.now() > deadline) throw new Error(`no challenge was sent before the code was typed; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.stdin.write('000000\n');
    expect(await exited).toBe(0);
  } finally {
    child.kill();
  }
  expect(activeSession(t)?.credentialId).toBe(t.emu.fixtures.credentialId);
});
