/**
 * A cross-process lock for read-modify-write of one store file (src/lock-file.ts): exactly one
 * process wins it; the others wait a few milliseconds and try again. A lock left by a crashed
 * process is taken over when its owner is gone or it is older than any real write (STALE_MS).
 * Synchronous on purpose: the Store API is synchronous and critical sections last milliseconds.
 */
import { tryLockFile } from '../lock-file.js';
import { StoreError } from './errors.js';

const WAIT_LIMIT_MS = 10_000;
const STALE_MS = 30_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function attempt(lockPath: string) {
  try {
    return tryLockFile(lockPath, { staleAfterMs: STALE_MS });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new StoreError(lockPath, `Could not create the lock file ${lockPath}: ${code}`, { cause: err });
  }
}

/**
 * Runs `critical` while holding the lock file `lockPath`, waiting up to WAIT_LIMIT_MS for it;
 * always releases it, also when `critical` throws.
 */
export function withFileLock<T>(lockPath: string, critical: () => T): T {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let lock = attempt(lockPath);
  while (!lock.acquired) {
    if (Date.now() > deadline) {
      throw new StoreError(lockPath, `Timed out waiting for the store lock ${lockPath}`, {
        hint: `Another svc process is writing the store. If none is running, delete ${lockPath}.`,
      });
    }
    sleepSync(2 + Math.floor(Math.random() * 10)); // jitter so waiters do not retry in lock-step
    lock = attempt(lockPath);
  }
  try {
    return critical();
  } finally {
    lock.release();
  }
}
