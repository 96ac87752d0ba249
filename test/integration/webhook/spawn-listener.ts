/**
 * Runs `svc webhook listen` as a real long-running process (bin/svc.js, like runSvc but not waited
 * for): resolves once the ready line is on stderr, collects stdout/stderr, and stops it with SIGINT
 * the way Ctrl-C does. A process that outlives its test is SIGKILLed by pid.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SVC_BIN, svcEnv } from '../../helpers/spawn-svc.js';

export interface SpawnedListener {
  url: string;
  pid: number;
  /** stdout without the --json ready line (events only). */
  stdout(): string;
  /** The --json ready line, parsed (undefined without --json). */
  readyLine(): { ready: true; url: string; publicKey: string | null } | undefined;
  stderr(): string;
  /** Waits until stdout has at least n lines (or throws after timeoutMs, showing stderr). */
  waitForLines(n: number, timeoutMs?: number): Promise<string[]>;
  /** Stops reading stdout (a consumer that lags, like a pipe into a busy `jq`) until `readStdout`. */
  pauseStdout(): void;
  readStdout(): void;
  /** Closes stdout's read end, as `| head -1` does once it has its line. */
  closeStdout(): void;
  /** The exit code once the process is gone by itself. */
  exited(): Promise<number | null>;
  /** SIGINT, then the exit code once the process is gone. */
  stop(): Promise<number | null>;
  /** SIGKILL (a crash: no cleanup of any kind), resolved once the process is gone. */
  crash(): Promise<void>;
  kill(): void;
}

export const lines = (text: string) => text.split('\n').filter((l) => l !== '');

/** Under --json the listener's first stdout line is `{"ready":true,…}`: kept apart from the events. */
const READY = /^\{"ready":true[^\n]*\n/;

async function until(check: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function spawnListener(
  args: string[],
  configDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<SpawnedListener> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SVC_BIN, ...args], {
    env: svcEnv(configDir, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let exitCode: number | null | undefined;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve((exitCode = code))));
  const show = () => `stdout:\n${out}\nstderr:\n${err}`;

  let url: string | undefined;
  await until(
    () => (url = /Listening for webhooks on (\S+)/.exec(err)?.[1]) !== undefined || exitCode !== undefined,
    15_000,
    () => `listener not ready in time\n${show()}`,
  );
  if (url === undefined) throw new Error(`listener exited with ${exitCode} before it was ready\n${show()}`);

  return {
    url,
    pid: child.pid!,
    stdout: () => out.replace(READY, ''),
    readyLine: () => {
      const line = READY.exec(out)?.[0];
      return line ? (JSON.parse(line) as { ready: true; url: string; publicKey: string | null }) : undefined;
    },
    stderr: () => err,
    async waitForLines(n, timeoutMs = 15_000) {
      await until(
        () => lines(out.replace(READY, '')).length >= n,
        timeoutMs,
        () => `expected ${n} stdout lines\n${show()}`,
      );
      return lines(out.replace(READY, ''));
    },
    pauseStdout: () => child.stdout.pause(),
    readStdout: () => child.stdout.resume(),
    async stop() {
      if (exitCode === undefined) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async crash() {
      if (exitCode === undefined) child.kill('SIGKILL');
      await exited;
    },
    kill() {
      if (exitCode === undefined) child.kill('SIGKILL');
    },
    closeStdout: () => child.stdout.destroy(),
    exited: () => exited,
  };
}
