/**
 * One emulator owns a config folder and its `local` profile, whether started in the foreground or
 * with --detach: status and stop find either; a second start is refused, naming the first; one
 * with --no-profile runs beside it without touching the profile. `stop` returns once the emulator
 * has exited, even when nobody has reaped it yet.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/process-alive.js';
import { runSvc, startSvc, tempConfigDir, type LongRunningSvc } from '../helpers/spawn-svc.js';

const running: LongRunningSvc[] = [];
const folders: string[] = [];
const parents: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((svc) => svc.stop('SIGKILL')));
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempConfigDir();
  folders.push(dir);
  return dir;
}

async function foreground(configDir: string, args: string[] = []) {
  const svc = startSvc(['--json', 'emulator', 'start', '--port', '0', ...args], { configDir });
  running.push(svc);
  return { svc, ready: JSON.parse(await svc.firstLine) as { baseUrl: string } };
}

const localBaseUrl = async (configDir: string) =>
  (await runSvc(['--profile', 'local', 'config', 'get', 'base-url'], { configDir })).stdout.trim();

describe('one emulator per config folder', () => {
  it('status and stop see a foreground emulator; a second start is refused; --no-profile runs beside it', async () => {
    const configDir = folder();
    const { svc, ready } = await foreground(configDir);

    const status = await runSvc(['--json', 'emulator', 'status'], { configDir });
    expect(status.code).toBe(0);
    const seen = JSON.parse(status.stdout) as { pid: number; baseUrl: string; detached: boolean };
    expect(seen).toMatchObject({ running: true, baseUrl: ready.baseUrl, detached: false });
    expect(processAlive(seen.pid)).toBe(true);

    for (const args of [[], ['--detach']]) {
      const second = await runSvc(['emulator', 'start', '--port', '0', ...args], { configDir });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`pid ${seen.pid}, ${ready.baseUrl}`);
      expect(second.stderr).toContain('svc emulator stop');
    }
    expect(await localBaseUrl(configDir)).toBe(ready.baseUrl);

    // A test worker's emulator: no profile, no claim, so it starts beside the first one.
    const beside = await foreground(configDir, ['--no-profile']);
    expect(beside.ready.baseUrl).not.toBe(ready.baseUrl);
    expect(await localBaseUrl(configDir)).toBe(ready.baseUrl);
    expect(
      (JSON.parse((await runSvc(['--json', 'emulator', 'status'], { configDir })).stdout) as { pid: number }).pid,
    ).toBe(seen.pid);

    const stop = await runSvc(['emulator', 'stop'], { configDir });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toContain(`Emulator stopped (pid ${seen.pid}, ${ready.baseUrl})`);
    expect(await svc.stop()).toBe(0); // already gone: resolves with its own exit code
    expect((await runSvc(['emulator', 'status'], { configDir })).code).toBe(1);
    // The profile that was current before is current again; the `local` profile itself is kept.
    expect(await localBaseUrl(configDir)).toBe(ready.baseUrl);
  });

  it('start --detach says that it made `local` current', async () => {
    const configDir = folder();
    const start = await runSvc(['emulator', 'start', '--detach', '--port', '0'], { configDir });
    try {
      expect(start.code).toBe(0);
      expect(start.stderr).toMatch(/Profile "local" is now current/);
      const none = await runSvc(['emulator', 'start', '--detach', '--port', '0', '--no-profile'], {
        configDir: folder(),
      });
      expect(none.stderr).not.toMatch(/Profile "local"/);
      await runSvc(['emulator', 'stop'], { configDir: folders[1]! });
    } finally {
      await runSvc(['emulator', 'stop'], { configDir });
    }
  });

  it('stop returns once the emulator exited, even while nobody has reaped it', async () => {
    // The stand-in emulator is a child whose parent never waits for it: once SIGTERM ends it, it stays
    // a zombie (it answers signal 0 but has exited), as a detached emulator does until a slow init reaps it.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    parents.push(parent);
    const pid = await new Promise<number>((resolve) =>
      parent.stdout!.setEncoding('utf8').once('data', (d: string) => resolve(Number.parseInt(d, 10))),
    );
    const configDir = folder();
    writeFileSync(join(configDir, 'emulator.pid'), `${pid}\n`);
    writeFileSync(
      join(configDir, 'emulator.json'),
      JSON.stringify({ pid, baseUrl: 'http://127.0.0.1:9/2025-10-13', detached: true, fixtures: {} }),
    );
    const stop = await runSvc(['emulator', 'stop'], { configDir, timeoutMs: 10_000 });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toContain(`Emulator stopped (pid ${pid}`);
    expect(() => process.kill(pid, 0)).not.toThrow(); // not reaped yet: the case under test
    expect(processAlive(pid)).toBe(false);
  });
});
