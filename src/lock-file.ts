/**
 * The one lock-file mechanism: `<file>.lock` holds its owner's pid, and exactly one process can
 * create it. The store holds it for the milliseconds of a read-modify-write and waits its turn
 * (src/store/lock.ts); a webhook listener holds it for as long as it runs and refuses to start
 * beside another (src/webhook/journal/lock.ts).
 *
 * The pid is written to a private temp file that is then hard-linked into place: link() fails if
 * the lock exists, so a lock never exists without its pid. A lock whose owner is gone (killed with
 * no chance to clean up) is stale and taken over; so is one with no readable pid after a second
 * (left by hand, or by an older svc), and, when the holder says so, one older than `staleAfterMs`.
 */
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { processAlive } from './process-alive.js';

/** Deletes a file that may already be gone: unlinkSync, since rmSync loads Node's recursive remover. */
export function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A lock without a readable pid this old lost its owner: ours are never empty, even for an instant. */
const NO_PID_STALE_MS = 1_000;

export type LockAttempt = { acquired: true; release: () => void } | { acquired: false; owner: number | undefined };

/** The pid in a lock file, or undefined when it has none (or is gone). */
function ownerOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The inode of the lock when it is stale, or undefined when it is live (or gone). */
function staleInode(lockPath: string, staleAfterMs: number | undefined): number | undefined {
  try {
    const st = statSync(lockPath);
    const age = Date.now() - st.mtimeMs;
    if (staleAfterMs !== undefined && age > staleAfterMs) return st.ino;
    const owner = ownerOf(lockPath);
    if (owner === undefined) return age > NO_PID_STALE_MS ? st.ino : undefined;
    return owner !== process.pid && !processAlive(owner) ? st.ino : undefined;
  } catch {
    return undefined; // vanished meanwhile: the next attempt finds out
  }
}

/** Removes a stale lock only if it is still the same file, so a fresh lock taken meanwhile survives. */
function removeIfSame(lockPath: string, ino: number): void {
  try {
    if (statSync(lockPath).ino === ino) unlinkSync(lockPath);
  } catch {
    // gone already
  }
}

/**
 * One attempt at `lockPath`, taking over a stale lock on the way. Errors other than "it exists"
 * (a missing folder, no permission) are thrown for the caller to word.
 */
export function tryLockFile(lockPath: string, options: { staleAfterMs?: number } = {}): LockAttempt {
  const mine = `${lockPath}.${process.pid}.tmp`;
  const fd = openSync(mine, 'w', 0o600);
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(mine, lockPath);
        return { acquired: true, release: () => removeIfPresent(lockPath) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const stale = staleInode(lockPath, options.staleAfterMs);
      if (stale === undefined) break;
      removeIfSame(lockPath, stale);
    }
    return { acquired: false, owner: ownerOf(lockPath) };
  } finally {
    removeIfPresent(mine);
  }
}
