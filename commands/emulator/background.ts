/**
 * The files of an emulator started with `--detach`, one per config folder (so a CI job with its own
 * SERVICE_CLI_CONFIG_DIR has its own): `emulator.pid` holds the pid and is created by exactly one
 * process (src/lock-file.ts, which also takes over the file of an emulator that was killed), and
 * `emulator.json` says where it listens, for `svc emulator status` and `stop`. Neither holds a
 * secret: the credentials are in the `local` profile (or the ready line the start printed).
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryLockFile } from '../../src/lock-file.js';
import { processAlive } from '../../src/process-alive.js';
import { UsageError } from '../../src/errors.js';

/** Set in the child's environment: it is the background emulator and reports readiness over IPC. */
export const DETACHED_CHILD_ENV = 'SVC_EMULATOR_DETACHED';

/** What `emulator.json` records about a background emulator. */
export interface BackgroundEmulator {
  pid: number;
  baseUrl: string;
  startedAt: string;
  timeScale: number;
  /** Where its stdout and stderr go (its --verbose log, and why it stopped). */
  log: string;
  fixtures: Record<string, string>;
}

export const backgroundFiles = (configDir: string) => ({
  pid: join(configDir, 'emulator.pid'),
  info: join(configDir, 'emulator.json'),
  log: join(configDir, 'emulator.log'),
});

/** The pid in `emulator.pid` when that process is alive, else undefined. */
export function runningPid(configDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(backgroundFiles(configDir).pid, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The running background emulator of this config folder, or undefined. */
export function readBackground(configDir: string): BackgroundEmulator | undefined {
  const pid = runningPid(configDir);
  if (pid === undefined) return undefined;
  try {
    const info = JSON.parse(readFileSync(backgroundFiles(configDir).info, 'utf8')) as BackgroundEmulator;
    // Until it is ready, the emulator holds the pid file without emulator.json.
    return info.pid === pid ? info : undefined;
  } catch {
    return undefined;
  }
}

export function alreadyRunning(configDir: string, pid: number): UsageError {
  const info = readBackground(configDir);
  return new UsageError(
    `An emulator started with --detach is already running for the config folder ${configDir} (pid ${pid}${info ? `, ${info.baseUrl}` : ''})`,
    {
      input: '--detach',
      hint: 'Stop it with `svc emulator stop`, or set SERVICE_CLI_CONFIG_DIR to another folder for a second one.',
    },
  );
}

/**
 * Claims the config folder for this process (the detached emulator itself), before it listens.
 * Returns what `ready` and `release` do: record where it listens, and remove both files at exit.
 */
export function claimFolder(configDir: string): {
  log: string;
  ready(info: Omit<BackgroundEmulator, 'pid'>): void;
  release(): void;
} {
  const files = backgroundFiles(configDir);
  const attempt = tryLockFile(files.pid);
  if (!attempt.acquired) throw alreadyRunning(configDir, attempt.owner ?? 0);
  return {
    log: files.log,
    ready(info) {
      writeFileSync(files.info, `${JSON.stringify({ pid: process.pid, ...info }, null, 2)}\n`, { mode: 0o600 });
    },
    release() {
      try {
        unlinkSync(files.info);
      } catch {
        // never written (it stopped before it was ready)
      }
      attempt.release();
    },
  };
}

/** Removes what a killed emulator left behind (its pid file names a dead process). */
export function removeStaleFiles(configDir: string): void {
  for (const file of [backgroundFiles(configDir).info, backgroundFiles(configDir).pid]) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
