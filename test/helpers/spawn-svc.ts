/**
 * Runs the built CLI (bin/svc.js) as a real process, with a private config directory and only
 * the environment a test gives it (no SERVICE_* leaks from the developer's shell).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SVC_BIN = join(REPO_ROOT, 'bin', 'svc.js');

export interface SvcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

export interface RunSvcOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  configDir?: string;
  timeoutMs?: number;
}

/** Environment for a spawned svc: PATH and HOME only, CI=true so nothing ever prompts, plus the test's own. */
export function svcEnv(configDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', NO_COLOR: '1', SERVICE_CLI_CONFIG_DIR: configDir, ...extra };
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
    child.stdin.end(options.stdin ?? '');
  });
}
