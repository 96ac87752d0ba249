/**
 * Test helpers and benches leave nothing behind and never touch the user's own files: fakeDeps with
 * no store folder in its environment gets a private one instead of the home's config, and the
 * receiver-store server of the webhook bench removes the folder of its seen-ids file when stopped.
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { leftovers } from '../../helpers/private-tmpdir.js';
import { REPO_ROOT } from '../../helpers/spawn-svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { run as configSet } from '../../../commands/config/set.js';

describe('fakeDeps given an empty environment', () => {
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('writes the store in a folder of its own, nothing in the home (HOME, XDG_CONFIG_HOME)', async () => {
    // A stand-in for the user's home: where the store would go by default (os.homedir() reads HOME).
    const home = tempDir('svc-home-');
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = join(home, '.config');

    const deps = fakeDeps();
    await configSet({ key: 'base-url', value: 'http://127.0.0.1:9/v1' }, deps);

    expect(readdirSync(home)).toEqual([]);
    const own = deps.env.SERVICE_CLI_CONFIG_DIR!;
    expect(own.startsWith(home)).toBe(false);
    const config = JSON.parse(readFileSync(join(own, 'config.json'), 'utf8'));
    expect(config.profiles.default.baseUrl).toMatch(/^http:\/\/127.0.0.1:9\/v1/);
  });

  it('keeps the store folder or the home a test names', () => {
    const named = tempDir('svc-named-');
    expect(fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: named } }).env.SERVICE_CLI_CONFIG_DIR).toBe(named);
    expect(fakeDeps({ env: { HOME: named } }).env.SERVICE_CLI_CONFIG_DIR).toBeUndefined();
  });
});

describe('the webhook bench’s receiver-store server', () => {
  it('removes the folder of its seen-ids file when stopped', async () => {
    const tmp = tempDir('svc-bench-tmp-');
    const publicKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const server = fork(join(REPO_ROOT, 'test', 'bench', 'webhook-bench-server.mjs'), ['receiver-store'], {
      env: { PATH: process.env.PATH, TMPDIR: tmp, BENCH_KEY: publicKey },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    server.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      const messages: unknown[] = [];
      const next = () =>
        new Promise<unknown>((resolve, reject) => {
          server.once('message', resolve);
          void exited.then((code) => reject(new Error(`bench server exited ${code}: ${stderr}`)));
        });
      messages.push(await next());
      expect(messages[0]).toMatchObject({ port: expect.any(Number) });
      // It made its folder under TMPDIR while it ran.
      expect(leftovers(tmp).length).toBe(1);
      server.send('stop');
      messages.push(await next());
      expect(messages[1]).toMatchObject({ stopped: { events: 0 } });
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill();
    }
    expect(existsSync(tmp)).toBe(true);
    expect(leftovers(tmp)).toEqual([]);
  }, 60_000);
});
