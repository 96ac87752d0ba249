/**
 * Runs the built CLI (bin/svc.js) as a real process, with a private config directory and only
 * the environment a test gives it (no SERVICE_* leaks from the developer's shell).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dir.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SVC_BIN = join(REPO_ROOT, 'bin', 'svc.js');

export interface SvcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A private config folder, removed when the test file is done. */
export function tempConfigDir(): string {
  return tempDir('svc-test-');
}

export interface RunSvcOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  configDir?: string;
  timeoutMs?: number;
}

/**
 * Environment for a spawned svc: PATH and HOME only, CI=true so nothing ever prompts, the run's
 * temporary folder (test/helpers/private-tmpdir.ts), the contract recorder, plus the test's own.
 */
export function svcEnv(configDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: tmpdir(),
    CI: 'true',
    NO_COLOR: '1',
    SERVICE_CLI_CONFIG_DIR: configDir,
    // A spawned emulator records its exchanges for the contract check too (test/contract/).
    ...(process.env.SVC_EMULATOR_EXCHANGE_LOG
      ? { SVC_EMULATOR_EXCHANGE_LOG: process.env.SVC_EMULATOR_EXCHANGE_LOG }
      : {}),
    ...extra,
  };
}

export function runSvc(args: string[], options: RunSvcOptions = {}): Promise<SvcResult> {
  const configDir = options.configDir ?? tempConfigDir();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: svcEnv(configDir, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    // A command that exits before reading stdin (most do, quickly) closes the pipe: EPIPE is expected.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

export interface LongRunningSvc {
  /** Resolves with the first stdout line (a server's --json ready line). */
  firstLine: Promise<string>;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running svc (emulator start, webhook listen) and hands back its output as it comes. */
export function startSvc(args: string[], options: RunSvcOptions = {}): LongRunningSvc {
  const configDir = options.configDir ?? tempConfigDir();
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: svcEnv(configDir, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no output from svc ${args.join(' ')}; stderr: ${stderr}`)),
      options.timeoutMs ?? 15_000,
    );
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const nl = stdout.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(stdout.slice(0, nl));
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc ${args.join(' ')} exited ${code} before printing; stderr: ${stderr}`));
    });
  });
  firstLine.catch(() => {}); // a test that never awaits it must not see an unhandled rejection
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return {
    firstLine,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
