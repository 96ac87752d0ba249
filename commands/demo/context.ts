/**
 * The demo's world: an emulator on a free port, a store, and Deps for the real commands that point
 * at both. The store is a temporary folder that is deleted afterwards, so the demo never touches
 * the user's profiles; with --keep it is the user's own store (profile "local" made current until
 * it stops) so the emulator can be used by hand after the walk-through.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { withStoreAndClient, type Deps } from '../deps.js';
import { LOCAL_PROFILE, restoreCurrentProfile, saveEmulatorProfile } from '../config/local-profile.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { claimFolder } from '../emulator/background.js';
import type { Store } from '../../src/store/index.js';
import type { ApiClient } from '../../src/http/client.js';

export interface DemoContext {
  emulator: RunningEmulator;
  store: Store;
  /** Deps for the commands the demo runs: its own store and profile, narration stream as stdout. */
  deps: Deps;
  /** For the few calls no command makes (webhook endpoint, card issue/freeze). */
  client: ApiClient;
  /** Where narration and the commands' results go (stderr under --json). */
  out: Writable;
  /** True when the store is a throw-away folder. */
  temporary: boolean;
  close(): Promise<void>;
}

/**
 * The user's SERVICE_* variables would point the commands elsewhere (another base URL, token or
 * profile); the demo must talk to its own emulator whatever the shell says.
 */
function demoEnv(env: NodeJS.ProcessEnv, configDir: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('SERVICE_')));
  return { ...clean, SERVICE_CLI_CONFIG_DIR: configDir };
}

export async function openDemo(deps: Deps, options: { keep: boolean; interactive: boolean }): Promise<DemoContext> {
  const configDir = options.keep ? (await deps.store()).dir : mkdtempSync(join(tmpdir(), 'svc-demo-'));
  // With --keep the demo's emulator owns the user's folder and `local` profile, as `emulator start` does.
  const claim = options.keep ? claimFolder(configDir, { detach: false }) : undefined;
  let emulator: RunningEmulator | undefined;
  try {
    // Two PROCESSING answers per signed retry, so the refresh step shows the poll-until-settled path.
    emulator = await startEmulator({ port: 0, processingRetries: 2 });
    claim?.ready({
      baseUrl: emulator.baseUrl,
      startedAt: new Date().toISOString(),
      timeScale: 1,
      detached: false,
      fixtures: { ...emulator.fixtures },
    });
    const env = demoEnv(deps.env, configDir);
    const out = deps.globals.json ? deps.io.stderr : deps.io.stdout;
    const demoDeps = withStoreAndClient({
      prompter: deps.prompter,
      clock: deps.clock,
      signal: deps.signal,
      commands: deps.commands,
      env,
      io: { ...deps.io, stdout: out, stdoutIsTTY: deps.globals.json ? deps.io.stderrIsTTY : deps.io.stdoutIsTTY },
      // Commands print for people here; only --interactive may prompt; revoke needs no confirmation.
      globals: {
        ...deps.globals,
        profile: LOCAL_PROFILE,
        baseUrl: undefined,
        json: false,
        yes: true,
        input: options.interactive && deps.globals.input,
      },
    });
    const store = await demoDeps.store();
    const previous = saveEmulatorProfile(store, emulator);
    const client = await demoDeps.client();
    const running = emulator;
    return {
      emulator: running,
      store,
      deps: demoDeps,
      client,
      out,
      temporary: !options.keep,
      async close() {
        await running.close();
        if (!options.keep) rmSync(configDir, { recursive: true, force: true });
        // As `svc emulator start` does: the profile that was current is current again.
        else restoreCurrentProfile(store, previous);
        claim?.release();
      },
    };
  } catch (error) {
    await emulator?.close();
    claim?.release();
    if (!options.keep) rmSync(configDir, { recursive: true, force: true });
    throw error;
  }
}
