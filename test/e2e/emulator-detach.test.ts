/** `svc emulator start --detach`, `status` and `stop`: the emulator's lifecycle in a CI script. */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/process-alive.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

/** Background emulators a test started, killed afterwards whatever the test did. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
});

async function detach(configDir: string, args: string[] = []) {
  const result = await runSvc(['--json', 'emulator', 'start', '--detach', '--port', '0', ...args], { configDir });
  if (result.code === 0) started.push((JSON.parse(result.stdout) as { pid: number }).pid);
  return result;
}

describe('svc emulator start --detach / status / stop', () => {
  it('returns once ready, serves in the background, and stop stops it and says so', async () => {
    const configDir = tempConfigDir();
    const start = await detach(configDir);
    expect(start.code).toBe(0);
    const ready = JSON.parse(start.stdout) as {
      pid: number;
      baseUrl: string;
      fixtures: { customerId: string };
    };
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/);
    expect(processAlive(ready.pid)).toBe(true);
    expect(existsSync(join(configDir, 'emulator.pid'))).toBe(true);

    // The start returned, yet the emulator answers, through the `local` profile it wrote.
    const customer = await runSvc(['--json', 'api', 'GET', `/customers/${ready.fixtures.customerId}`], { configDir });
    expect((JSON.parse(customer.stdout) as { id: string }).id).toBe(ready.fixtures.customerId);

    const status = await runSvc(['--json', 'emulator', 'status'], {
      configDir,
    });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      pid: ready.pid,
      baseUrl: ready.baseUrl,
    });

    const stop = await runSvc(['emulator', 'stop'], { configDir });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toContain(`Emulator stopped (pid ${ready.pid}`);
    expect(processAlive(ready.pid)).toBe(false);
    expect(existsSync(join(configDir, 'emulator.pid'))).toBe(false);

    const after = await runSvc(['emulator', 'status'], { configDir });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('no emulator is running for the config folder');
    // A cleanup step that runs when nothing is left is not a failure.
    const again = await runSvc(['emulator', 'stop'], { configDir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('nothing to stop');
  });

  it('refuses a second one for the same config folder (exit 2), naming the one running', async () => {
    const configDir = tempConfigDir();
    const first = await detach(configDir);
    const { pid } = JSON.parse(first.stdout) as { pid: number };
    const second = await detach(configDir);
    expect(second.code).toBe(2);
    expect(JSON.parse(second.stderr).error.message).toContain(`pid ${pid}`);
    expect((await runSvc(['emulator', 'stop'], { configDir })).code).toBe(0);
  });

  it("reports the emulator's own error and exit code when it cannot start, leaving no pid file", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const configDir = tempConfigDir();
      const result = await runSvc(['emulator', 'start', '--detach', '--port', String(port)], { configDir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is in use`);
      expect(existsSync(join(configDir, 'emulator.pid'))).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('takes over the pid file of one that was killed', async () => {
    const configDir = tempConfigDir();
    const first = await detach(configDir);
    const { pid } = JSON.parse(first.stdout) as { pid: number };
    process.kill(pid, 'SIGKILL');
    while (processAlive(pid)) await new Promise((r) => setImmediate(r));
    expect((await runSvc(['emulator', 'status'], { configDir })).code).toBe(1);
    const second = await detach(configDir);
    expect(second.code).toBe(0);
    expect((await runSvc(['emulator', 'stop'], { configDir })).code).toBe(0);
  });
});
