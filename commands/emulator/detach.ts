/**
 * `svc emulator start --detach`: starts the same command again as a detached child (its own process
 * group, so the terminal's Ctrl-C and the end of a CI step do not reach it) and returns once the
 * child says it is ready, over an IPC channel that is then closed. The child writes its output to
 * `emulator.log` in the config folder; it runs under --json so that, if it stops before it is ready
 * (a port in use, a bad flag), its one error line is read back and reported here with its exit code.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { Deps } from '../deps.js';
import { InterruptedError, SvcError, UsageError } from '../../src/errors.js';
import { alreadyRunning, backgroundFiles, DETACHED_CHILD_ENV, runningPid } from './background.js';

/** How long the child may take to listen (it loads its state file first). */
const READY_TIMEOUT_MS = 30_000;

/** What the child sends once it listens. */
interface ReadyMessage {
  ready: Record<string, unknown>;
}

/** The child's error, re-thrown here so it is rendered (and exits) as if it were ours. */
function childFailure(log: string, code: number | null): SvcError {
  const line = log
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"error"'));
  const error = line
    ? (
        JSON.parse(line) as {
          error: {
            type?: string;
            message?: string;
            field?: string;
            reason?: string;
            hint?: string;
          };
        }
      ).error
    : undefined;
  const message = error?.message ?? `the emulator exited with code ${code} before it was ready`;
  if (code === 2 || error?.type === 'usage')
    return new UsageError(message, { input: error?.field, reason: error?.reason, hint: error?.hint });
  return new SvcError(message, { hint: error?.hint });
}

/** Runs the child and resolves with its ready line; the child then runs on alone. */
export async function startDetached(
  args: string[],
  deps: Deps,
): Promise<{ pid: number; ready: Record<string, unknown>; log: string }> {
  const configDir = (await deps.store()).dir;
  const pid = runningPid(configDir);
  if (pid !== undefined) throw alreadyRunning(configDir, pid, { detach: true });

  const files = backgroundFiles(configDir);
  const logFd = openSync(files.log, 'w', 0o600);
  const child = spawn(process.execPath, [process.argv[1]!, '--json', ...args.filter((a) => a !== '--detach')], {
    detached: true,
    stdio: ['ignore', logFd, logFd, 'ipc'],
    env: {
      ...deps.env,
      [DETACHED_CHILD_ENV]: '1',
      SERVICE_CLI_CONFIG_DIR: configDir,
    },
  });
  closeSync(logFd);

  try {
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(
          new SvcError(`the emulator was not ready after ${READY_TIMEOUT_MS / 1000} s`, { hint: `See ${files.log}.` }),
        );
      }, READY_TIMEOUT_MS);
      const onAbort = () => {
        child.kill('SIGTERM');
        reject(new InterruptedError());
      };
      deps.signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        deps.signal.removeEventListener('abort', onAbort);
      };
      child.once('message', (message: ReadyMessage) => {
        settle();
        resolve(message.ready);
      });
      child.once('exit', (code) => {
        settle();
        reject(childFailure(readFileSync(files.log, 'utf8'), code));
      });
      child.once('error', (error) => {
        settle();
        reject(new SvcError(`could not start the emulator: ${error.message}`));
      });
    });
    return { pid: child.pid!, ready, log: files.log };
  } finally {
    // Let go of the child: no IPC channel or handle keeps this process (or the child) waiting.
    if (child.connected) child.disconnect();
    child.removeAllListeners();
    child.unref();
  }
}
