/**
 * A cross-process lock for read-modify-write of one file: the lock is a file created with O_EXCL
 * ('wx'), which exactly one process can win. Losers wait a few milliseconds and try again. A lock
 * left by a crashed process is taken over when its owner is gone or it is older than STALE_MS.
 * Synchronous on purpose: the Store API is synchronous and critical sections last milliseconds.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { StoreError } from './errors.js';
import { processAlive } from '../process-alive.js';

const WAIT_LIMIT_MS = 10_000;
const STALE_MS = 30_000;
/** The owner writes its PID right after creating the lock; an empty lock this old lost its owner in between. */
const EMPTY_STALE_MS = 1_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The inode of a stale lock, or undefined when the lock is live (or gone). */
function staleLockInode(lockPath: string): number | undefined {
  try {
    const st = statSync(lockPath);
    const age = Date.now() - st.mtimeMs;
    if (age > STALE_MS) return st.ino;
    const text = readFileSync(lockPath, 'utf8');
    // An empty file is a lock being written right now, unless it has stayed empty: a process killed
    // between creating the lock and writing its PID must not block every later writer for STALE_MS.
    if (text === '') return age > EMPTY_STALE_MS ? st.ino : undefined;
    const pid = Number.parseInt(text, 10);
    const dead = Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid);
    return dead ? st.ino : undefined;
  } catch {
    return undefined; // vanished meanwhile: just try again
  }
}

/** Removes the stale lock only if it is still the same file, so a fresh lock taken by another waiter survives. */
function removeStale(lockPath: string, ino: number): void {
  try {
    if (statSync(lockPath).ino === ino) unlinkSync(lockPath);
  } catch {
    // gone already
  }
}

function tryAcquire(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StoreError(lockPath, `Could not create the lock file ${lockPath}: ${(err as NodeJS.ErrnoException).code}`, { cause: err });
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

function release(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone (taken over as stale): nothing to release
  }
}

/**
 * Runs `critical` while holding the O_EXCL lock file `lockPath`, waiting up to WAIT_LIMIT_MS for it;
 * always releases it, also when `critical` throws.
 */
export function withFileLock<T>(lockPath: string, critical: () => T): T {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!tryAcquire(lockPath)) {
    const staleIno = staleLockInode(lockPath);
    if (staleIno !== undefined) {
      removeStale(lockPath, staleIno);
      continue;
    }
    if (Date.now() > deadline) {
      throw new StoreError(lockPath, `Timed out waiting for the store lock ${lockPath}`, {
        hint: `Another svc process is writing the store. If none is running, delete ${lockPath}.`,
      });
    }
    sleepSync(2 + Math.floor(Math.random() * 10)); // jitter so waiters do not retry in lock-step
  }
  try {
    return critical();
  } finally {
    release(lockPath);
  }
}
