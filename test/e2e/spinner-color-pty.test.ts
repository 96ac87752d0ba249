/**
 * The spinner follows the colour decision of every other line: NO_COLOR alone (no --no-color) draws
 * it without colour codes, while a terminal without NO_COLOR gets the cyan frame.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorEnv } from '../integration/commands/helpers.js';
import { svcOnPty } from '../integration/auth/pty.js';
import { tempDir } from '../helpers/temp-dir.js';

const CYAN = '\u001b[36m';
let emu: RunningEmulator;
let configDir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  configDir = tempDir('svc-spinner-');
});
afterAll(async () => {
  await emu.close();
  rmSync(configDir, { recursive: true, force: true });
});

/** The screen of `trigger quote.long --wait` once its spinner is drawn (at 1x it would wait 6 minutes: killed). */
async function spinnerScreen(env: NodeJS.ProcessEnv): Promise<string> {
  const pty = svcOnPty(['trigger', 'quote.long', '--wait'], {
    ...emulatorEnv(emu),
    SERVICE_CLI_CONFIG_DIR: configDir,
    ...env,
  });
  try {
    await pty.waitFor(/Following/);
    return pty.screen();
  } finally {
    pty.kill();
  }
}

it('NO_COLOR makes the spinner plain, as --no-color does', async () => {
  expect(await spinnerScreen({ NO_COLOR: '1' })).not.toContain(CYAN);
  expect(await spinnerScreen({ NO_COLOR: '' })).toContain(CYAN);
});
