/**
 * `svc emulator stop`: stops the emulator that owns this config folder (emulator.pid: started with
 * --detach, or in the foreground with the `local` profile) with SIGTERM, which it handles like
 * Ctrl-C (state saved, previous profile restored, pid file removed), and returns once it is gone:
 * the process exited (an exited one not yet reaped counts as gone: src/process-alive.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Deps } from '../deps.js';
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { processAlive } from '../../src/process-alive.js';
import { StopFailedError, SvcError } from '../../src/errors.js';
import { readBackground, removeStaleFiles, runningPid, takeStopFailure } from './background.js';

/** How long a clean stop may take (a large --state file is saved on the way out). */
const STOP_TIMEOUT_MS = 15_000;
const POLL_MS = 50;

export async function run(_opts: OptionsOf<typeof verbs.stop>, deps: Deps): Promise<void> {
  const { ui } = deps;
  const configDir = (await deps.store()).dir;
  const pid = runningPid(configDir);
  if (pid === undefined) {
    removeStaleFiles(configDir); // left by one that was killed
    return ui.result({ stopped: false, configDir }, () =>
      ui.info(`No emulator is running for the config folder ${configDir}; nothing to stop.`),
    );
  }
  const baseUrl = readBackground(configDir)?.baseUrl;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; processAlive(pid); waited += POLL_MS) {
    if (waited >= STOP_TIMEOUT_MS) {
      throw new SvcError(`the emulator (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`, {
        hint: `Run \`svc emulator stop\` again, or kill -9 ${pid}.`,
      });
    }
    await delay(POLL_MS);
  }
  // It stopped, but its last save of the --state file failed: say what it could not save, exit 1.
  const failure = takeStopFailure(configDir, pid);
  if (failure) throw new StopFailedError(failure.message, failure.hint ? { hint: failure.hint } : undefined);
  ui.result({ stopped: true, pid, ...(baseUrl ? { baseUrl } : {}), configDir }, () =>
    ui.success(`Emulator stopped (pid ${pid}${baseUrl ? `, ${baseUrl}` : ''}).`),
  );
}
