/**
 * A cross-process lock for read-modify-write of one store file (src/lock-file.ts): exactly one
 * process wins it; the others wait a few milliseconds and try again. A lock left by a crashed
 * process is taken over when its owner is gone or it is older than any real write (STALE_MS).
 * Synchronous on purpose: the Store API is synchronous and critical sections last milliseconds.
 *
 * The store has one lock, `config.json.lock`, and every write of a store file holds it from conf's
 * temp file to its rename (config.json, sessions, key folders): so whoever holds it knows that any
 * conf temp file in the store was left by a writer killed mid-write, and removes it at once.
 */
import { join } from 'node:path';
import { removeIfPresent, tryLockFile } from '../lock-file.js';
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
        hint: `Another process is writing the store. If none is running, delete ${lockPath}.`,
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

/** The store's one lock file, in the store folder `storeDir`. */
function storeLockFile(storeDir: string): string {
  return join(storeDir, 'config.json.lock');
}

/** Runs `write` (a write of any store file) holding the store's lock: see the top of this file. */
export function withStoreLock<T>(storeDir: string, write: () => T): T {
  return withFileLock(storeLockFile(storeDir), write);
}

/**
 * Removes conf temp files (securePrivateFiles lists them) when the store lock is free: no write is
 * under way, so they belong to writers killed mid-write. When another process holds it (or the lock
 * cannot be made, e.g. a read-only folder), they stay: one may be that write's; a later run removes them.
 * One attempt, no waiting: this runs as the store opens.
 */
export function removeAbandonedWrites(storeDir: string, temps: readonly string[]): void {
  if (temps.length === 0) return;
  let lock: ReturnType<typeof tryLockFile>;
  try {
    lock = tryLockFile(storeLockFile(storeDir), { staleAfterMs: STALE_MS });
  } catch {
    return;
  }
  if (!lock.acquired) return;
  try {
    for (const temp of temps) removeIfPresent(temp);
  } finally {
    lock.release();
  }
}
