// `svc emulator logs` and `svc emulator open` against a spawned emulator, through its `local` profile.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir, type LongRunningSvc } from '../helpers/spawn-svc.js';
import { useSpawnedEmulator } from '../helpers/spawned-emulator.js';

const spawned = useSpawnedEmulator();
const folders: string[] = [];
let follower: LongRunningSvc | undefined;

afterEach(async () => {
  await follower?.stop('SIGINT');
  follower = undefined;
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempConfigDir();
  folders.push(dir);
  return dir;
}

const basic = (ready: { apiTokenId: string; apiClientSecret: string }) =>
  `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`;

describe('svc emulator logs', () => {
  it('prints the requests served, filters by --status and --path, and --follow shows one made after it started', async () => {
    const configDir = folder();
    const ready = await spawned.start(configDir);
    await fetch(`${ready.baseUrl}/config`, { headers: { authorization: basic(ready) } });
    await fetch(`${ready.baseUrl}/customers/Customer:nope`, { headers: { authorization: basic(ready) } });

    const all = await runSvc(['emulator', 'logs'], { configDir });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/GET +200 {2}\/2025-10-13\/config {2}[\d.]+ms {2}Basic emu_/);
    expect(all.stdout).toContain('/2025-10-13/customers/Customer:nope');
    expect(all.stdout).not.toContain(ready.apiClientSecret);

    const errors = await runSvc(['--json', 'emulator', 'logs', '--status', '4xx'], { configDir });
    const lines = errors.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.status >= 400 && l.status < 500)).toBe(true);
    expect(lines.map((l) => l.path)).toContain('/2025-10-13/customers/Customer:nope');

    const byPath = await runSvc(['emulator', 'logs', '--path', '*/config'], { configDir });
    expect(byPath.stdout.trim().split('\n')).toEqual([expect.stringContaining('/2025-10-13/config')]);

    const bad = await runSvc(['emulator', 'logs', '--status', 'teapot'], { configDir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--status');
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    follower = startSvc(['emulator', 'logs', '--follow', '--path', '*/platform*'], { configDir });
    await expect.poll(() => follower!.stderr(), { timeout: 10_000 }).toContain('Following');
    await fetch(`${ready.baseUrl}/platform/internal-accounts`, { headers: { authorization: basic(ready) } });
    await expect
      .poll(() => follower!.stdout(), { timeout: 10_000 })
      .toContain('/2025-10-13/platform/internal-accounts');
    // Its own long polls are not in the log.
    expect((await runSvc(['emulator', 'logs'], { configDir })).stdout).not.toContain('_emulator/requests');
  });
});

describe('svc emulator open', () => {
  it('opens the dashboard URL of the running emulator in the browser, or prints it', async () => {
    const configDir = folder();
    const ready = (await spawned.start(configDir)) as { dashboardUrl?: string };
    const printed = await runSvc(['emulator', 'open', '--print'], { configDir });
    expect(printed.stdout.trim()).toBe(ready.dashboardUrl);
    // SVC_BROWSER is the browser command: `true` starts and exits, as a real one hands off.
    const opened = await runSvc(['--json', 'emulator', 'open'], { configDir, env: { SVC_BROWSER: 'true' } });
    expect(JSON.parse(opened.stdout)).toEqual({ dashboardUrl: ready.dashboardUrl, opened: true });
    const none = await runSvc(['emulator', 'open'], { configDir, env: { SVC_BROWSER: '/nonexistent/browser' } });
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe(ready.dashboardUrl);
    expect(none.stderr).toContain('No browser opened');
  });
});
