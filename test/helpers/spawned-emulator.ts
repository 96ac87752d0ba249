/** `svc emulator start` as a real process, for the end-to-end tests. */
import { afterEach } from 'vitest';
import { startSvc, type LongRunningSvc } from './spawn-svc.js';

/** The JSON ready line `svc --json emulator start` prints. */
export interface EmulatorReady {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  webhookPublicKey: string;
  otpSignerPublicKey: string;
  fixtures: Record<string, string>;
}

/**
 * One spawned emulator at a time, stopped after each test: `const spawned = useSpawnedEmulator()`
 * at the top of a file, then `await spawned.start(configDir)` gives its ready line.
 */
export function useSpawnedEmulator(): {
  /** Runs `svc --json emulator start --port <port> ...args` and resolves with its ready line. */
  start(configDir: string, options?: { port?: number; args?: string[] }): Promise<EmulatorReady>;
  /** Stops the one running (SIGTERM unless told) and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
} {
  let server: LongRunningSvc | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  return {
    async start(configDir, { port = 0, args = [] } = {}) {
      server = startSvc(['--json', 'emulator', 'start', '--port', String(port), ...args], { configDir });
      return JSON.parse(await server.firstLine) as EmulatorReady;
    },
    stop(signal) {
      const running = server;
      server = undefined;
      if (!running) throw new Error('useSpawnedEmulator: stop() with no emulator started');
      return running.stop(signal);
    },
  };
}
