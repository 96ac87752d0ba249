/**
 * The files of the emulator that owns a config folder: one started with `--detach`, or one in the
 * foreground that writes the `local` profile. One per config folder (a CI job with its own
 * SERVICE_CLI_CONFIG_DIR has its own), so a second start cannot overwrite the first one's `local`
 * profile; emulators started with `--no-profile` in the foreground claim nothing and run side by
 * side. `emulator.pid` holds the pid and is created by exactly one process (src/lock-file.ts, which
 * also takes over the file of an emulator that was killed), and `emulator.json` says where it
 * listens, for `svc emulator status` and `stop`. Neither holds a secret: the credentials are in the
 * `local` profile (or the ready line the start printed).
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryLockFile } from '../../src/lock-file.js';
import { processAlive } from '../../src/process-alive.js';
import { UsageError } from '../../src/errors.js';

/** Set in the child's environment: it is the background emulator and reports readiness over IPC. */
export const DETACHED_CHILD_ENV = 'SVC_EMULATOR_DETACHED';

/** What `emulator.json` records about the emulator that owns the config folder. */
export interface BackgroundEmulator {
  pid: number;
  baseUrl: string;
  startedAt: string;
  timeScale: number;
  /** Started with --detach (else in the foreground of some terminal). */
  detached: boolean;
  /** Where a detached one's stdout and stderr go (its --verbose log, and why it stopped). */
  log?: string;
  fixtures: Record<string, string>;
}

export const backgroundFiles = (configDir: string) => ({
  pid: join(configDir, 'emulator.pid'),
  info: join(configDir, 'emulator.json'),
  log: join(configDir, 'emulator.log'),
  /** Why the last emulator of this folder failed to stop cleanly (its last --state save), for `emulator stop`. */
  stopFailure: join(configDir, 'emulator-stop-failure.json'),
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

/** The running emulator that owns this config folder, or undefined. */
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

/** The refusal of a second emulator for a folder: which one runs, and the ways out. */
export function alreadyRunning(configDir: string, pid: number, options: { detach: boolean }): UsageError {
  const info = readBackground(configDir);
  const how = info ? (info.detached ? 'started with --detach' : 'in the foreground') : 'starting';
  return new UsageError(
    `An emulator is already running for the config folder ${configDir} (${how}, pid ${pid}${info ? `, ${info.baseUrl}` : ''}); its \`local\` profile stays as it is.`,
    {
      hint: options.detach
        ? 'Stop it with `svc emulator stop` first, or set SERVICE_CLI_CONFIG_DIR to another folder for a second one.'
        : 'Stop it with `svc emulator stop` first, or run this one beside it with --no-profile (it leaves the `local` profile alone).',
    },
  );
}

/**
 * Claims the config folder for this process (the emulator itself), before it listens. Returns what
 * `ready` and `release` do: record where it listens, and remove both files at exit.
 */
export function claimFolder(
  configDir: string,
  options: { detach: boolean },
): {
  log: string;
  ready(info: Omit<BackgroundEmulator, 'pid'>): void;
  release(stopFailure?: unknown): void;
} {
  const files = backgroundFiles(configDir);
  const attempt = tryLockFile(files.pid);
  if (!attempt.acquired) throw alreadyRunning(configDir, attempt.owner ?? 0, options);
  return {
    log: files.log,
    ready(info) {
      writeFileSync(files.info, `${JSON.stringify({ pid: process.pid, ...info }, null, 2)}\n`, { mode: 0o600 });
    },
    release(stopFailure) {
      try {
        unlinkSync(files.info);
      } catch {
        // never written (it stopped before it was ready)
      }
      if (stopFailure instanceof Error) {
        const { message, hint } = stopFailure as Error & { hint?: string };
        writeFileSync(files.stopFailure, JSON.stringify({ pid: process.pid, message, hint }), { mode: 0o600 });
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

/** What the emulator `pid` left in stopFailure when its stop failed (the file is removed), else undefined. */
export function takeStopFailure(configDir: string, pid: number): { message: string; hint?: string } | undefined {
  const file = backgroundFiles(configDir).stopFailure;
  try {
    const failure = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; message: string; hint?: string };
    unlinkSync(file);
    return failure.pid === pid ? failure : undefined;
  } catch {
    return undefined;
  }
}
