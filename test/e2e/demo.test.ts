/**
 * `svc demo` as a real process, as `npm run demo` runs it in CI: no TTY, no configuration, exit 0
 * with every step passed, and the config folder it was given left empty.
 */
import { readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

describe('svc demo (spawned)', () => {
  it('walks the whole mission and exits 0', async () => {
    const dir = tempConfigDir();
    const r = await runSvc(['demo'], { configDir: dir, timeoutMs: 90_000 });
    expect(r.stderr).not.toMatch(/^Error:/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Step 1\/10: OTP verify/);
    expect(r.stdout).toMatch(/Step 10\/10: Session revoke/);
    expect(r.stdout).toContain('All 10 steps passed');
    expect(r.stdout + r.stderr).not.toMatch(/\/embed\/cards\/[A-Za-z0-9_-]{10,}/);
    expect(readdirSync(dir)).toEqual([]);

    // It ends with a next step that works, and no hint about its own emulator, gone by then.
    const lines = r.stdout.trimEnd().split('\n');
    const next = /^Next: (svc [^(]+?) {2}/.exec(lines.at(-1)!)?.[1];
    expect(next, lines.at(-1)).toBe('svc emulator start --detach');
    expect(r.stdout + r.stderr).not.toMatch(/^Hint: .*(AuthMethod|Card|Session):/m);
    expect(r.stdout + r.stderr).not.toMatch(/`svc cards reveal Card:/);
    const own = tempConfigDir();
    try {
      // --port 0: another run on this machine may hold the default port 4010.
      const started = await runSvc([...next!.split(' ').slice(1), '--port', '0'], { configDir: own });
      expect(started.code, started.stderr).toBe(0);
    } finally {
      await runSvc(['emulator', 'stop'], { configDir: own });
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);
});
