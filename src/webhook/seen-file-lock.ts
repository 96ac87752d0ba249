/**
 * One listener per --store file. Two processes appending to the same file would each compact it
 * from their own memory and drop the other's ids, which would then be printed again after a restart.
 * The lock is a `<store>.lock` file holding the owner's pid; a lock whose owner is gone (killed, no
 * chance to clean up) is stale and taken over.
 */
import { closeSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { processAlive } from '../process-alive.js';

/** Takes the lock or throws UsageError({ field: '--store' }); returns the release function. */
export function lockSeenFile(storePath: string): () => void {
  const lockPath = `${storePath}.lock`;
  const mine = `${storePath}.${process.pid}.lock-tmp`;
  // Written whole first, then linked into place: link() fails if the lock exists, so the lock never
  // exists without its pid in it.
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
        return () => rmSync(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = ownerOf(lockPath);
      if (owner !== undefined && processAlive(owner)) {
        throw new UsageError(`--store ${storePath} is in use by another listener (pid ${owner})`, {
          field: '--store',
          hint: `Stop that listener or pass another --store file. If no listener is running, delete ${lockPath}.`,
        });
      }
      rmSync(lockPath, { force: true }); // stale: its owner is gone
    }
    throw new UsageError(`could not lock --store ${storePath}: another listener keeps taking ${lockPath}`, { field: '--store' });
  } finally {
    rmSync(mine, { force: true });
  }
}

function ownerOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // removed meanwhile: the next attempt finds out
  }
}
