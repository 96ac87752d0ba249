/**
 * One listener per --store file. Two processes appending to the same file would each compact it
 * from their own memory and drop the other's ids, which would then be printed again after a restart.
 * The lock is `<store>.lock` (src/lock-file.ts); one whose owner is gone is taken over.
 */
import { UsageError } from '../errors.js';
import { tryLockFile } from '../lock-file.js';

/** Takes the lock or throws UsageError({ field: '--store' }); returns the release function. */
export function lockSeenFile(storePath: string): () => void {
  const lockPath = `${storePath}.lock`;
  const lock = tryLockFile(lockPath);
  if (lock.acquired) return lock.release;
  if (lock.owner !== undefined) {
    throw new UsageError(`--store ${storePath} is in use by another listener (pid ${lock.owner})`, {
      field: '--store',
      hint: `Stop that listener or pass another --store file. If no listener is running, delete ${lockPath}.`,
    });
  }
  throw new UsageError(`could not lock --store ${storePath}: another listener keeps taking ${lockPath}`, {
    field: '--store',
  });
}
