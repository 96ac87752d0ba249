/**
 * Runs an example line the way a user's shell does: bash (pipefail, so every command of a pipe
 * counts), `svc` on PATH as the built bin/svc.js, in a work folder, with the variables the line
 * uses. Three ways: to the end; on a pseudo-terminal answering its prompts; or, for a server
 * (`emulator start`, `webhook listen`), until it says it is ready, then Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVC_BIN } from '../../helpers/spawn-svc.js';
import { defaultPortOf, withPortLock } from '../../helpers/default-port-lock.js';

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Shell {
  /** Folder the lines run in (their relative files: seen.json, webhook.pem…). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A folder holding `svc` (the built CLI) and any other stand-in command, for PATH. */
export function binFolder(dir: string, others: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  const scripts = { svc: `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(SVC_BIN)} "$@"\n`, ...others };
  for (const [name, text] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

export function runLine(shell: Shell, line: string, stdin = '', timeoutMs = 60_000): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', line], { cwd: shell.cwd, env: shell.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/** Waits until `text()` matches, or rejects with what was printed. */
async function waitFor(text: () => string, pattern: RegExp, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(text())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} (${what}); printed:\n${text()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * On a terminal (util-linux `script`; CI unset, as in a user's shell): waits for each prompt and
 * types its answer. stdout and stderr share the screen.
 */
export async function runOnTerminal(
  shell: Shell,
  line: string,
  answers: [RegExp, string][],
  timeoutMs = 60_000,
): Promise<ShellResult> {
  const env: NodeJS.ProcessEnv = { ...shell.env, TERM: 'xterm' };
  delete env.CI;
  const command = `stty cols 100 rows 30; bash -o pipefail -c ${quote(line)}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: shell.cwd, env });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    let from = 0;
    for (const [prompt, answer] of answers) {
      await waitFor(() => screen.slice(from), prompt, line, timeoutMs);
      from = screen.length;
      child.stdin.write(answer);
    }
    return { code: await exited, stdout: screen, stderr: '' };
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
}

/**
 * A server example: started in its own process group, stopped with SIGINT (Ctrl-C) once its
 * output matches `ready`; resolves with its exit code and output. `during` runs while it serves.
 */
export async function runServer(
  shell: Shell,
  line: string,
  ready: RegExp,
  during: (output: () => string) => Promise<void> = async () => {},
  timeoutMs = 60_000,
): Promise<ShellResult> {
  const port = defaultPortOf(line);
  if (port === undefined) return serve(shell, line, ready, during, timeoutMs);
  return withPortLock(port, () => serve(shell, line, ready, during, timeoutMs));
}

async function serve(
  shell: Shell,
  line: string,
  ready: RegExp,
  during: (output: () => string) => Promise<void>,
  timeoutMs: number,
): Promise<ShellResult> {
  const child = spawn('bash', ['-o', 'pipefail', '-c', line], {
    cwd: shell.cwd,
    env: shell.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => killGroup('SIGKILL'), timeoutMs);
  try {
    await waitFor(() => stdout + stderr, ready, line, timeoutMs);
    await during(() => stdout + stderr);
    killGroup('SIGINT');
    return { code: await exited, stdout, stderr };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) killGroup('SIGKILL');
  }
}
