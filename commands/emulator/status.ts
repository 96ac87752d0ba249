/**
 * `svc emulator status`: the emulator that owns this config folder (started with --detach, or in
 * the foreground with the `local` profile), if one runs, and where.
 */
import type { Deps } from '../deps.js';
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { SvcError } from '../../src/errors.js';
import { readBackground, runningPid } from './background.js';

export async function run(_opts: OptionsOf<typeof verbs.status>, deps: Deps): Promise<void> {
  const { ui } = deps;
  const configDir = (await deps.store()).dir;
  const info = readBackground(configDir);
  if (info === undefined) {
    const starting = runningPid(configDir);
    throw new SvcError(
      starting === undefined
        ? `no emulator is running for the config folder ${configDir}`
        : `the emulator (pid ${starting}) is starting and not ready yet`,
      {
        hint:
          starting === undefined
            ? 'Start one with `svc emulator start --detach` (emulators started with --no-profile are not tracked).'
            : undefined,
      },
    );
  }
  ui.result({ running: true, configDir, ...info }, () => {
    ui.out(`Emulator running at ${info.baseUrl} (pid ${info.pid}) since ${info.startedAt}`);
    const where = info.log ? `in the background, log: ${info.log}` : 'in the foreground of another terminal';
    ui.out(`  time scale: ${info.timeScale}x   ${where}`);
    ui.out(`  account ${info.fixtures.accountId}   credential ${info.fixtures.credentialId}`);
  });
}
