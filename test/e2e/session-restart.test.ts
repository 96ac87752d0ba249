/**
 * Sessions of an emulator restarted without --state: the keys held here name sessions the new
 * emulator never issued. Completion stops offering them, `session use` refuses one saying why, and
 * `session prune` deletes them, saying how many, with exit 0.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir, type LongRunningSvc } from '../helpers/spawn-svc.js';

let emulator: LongRunningSvc | undefined;
const folders: string[] = [];
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(configDir: string) {
  emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
  return JSON.parse(await emulator.firstLine) as { fixtures: { credentialId: string } };
}

describe('sessions of a restarted emulator', () => {
  it('completion drops them, session use refuses them, session prune deletes them', async () => {
    const configDir = tempConfigDir();
    folders.push(configDir);
    const first = await start(configDir);
    const login = await runSvc(
      ['--json', 'otp', 'verify', '--credential', first.fixtures.credentialId, '--code', '000000'],
      { configDir },
    );
    expect(login.code).toBe(0);
    const sessionId = (JSON.parse(login.stdout) as { id: string }).id;
    const values = () => runSvc(['completion', '--values', 'sessions'], { configDir });
    expect((await values()).stdout.trim()).toBe(sessionId);

    await emulator!.stop();
    await start(configDir);

    expect((await values()).stdout.trim()).toBe('');
    const use = await runSvc(['session', 'use', sessionId], { configDir });
    expect(use.code).toBe(4);
    expect(use.stderr).toContain(`${sessionId} cannot be used: the service at`);
    expect(use.stderr).toContain('svc session prune');

    const prune = await runSvc(['session', 'prune'], { configDir });
    expect(prune.code).toBe(0);
    expect(prune.stdout).toContain(`deleted  ${sessionId}`);
    expect(prune.stderr).toContain('Deleted 1 session key; 0 kept.');
    expect((await runSvc(['session', 'prune'], { configDir })).stderr).toContain('Nothing to prune');
  });
});
