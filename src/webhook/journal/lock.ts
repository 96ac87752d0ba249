/**
 * One listener per journal file. Two processes appending to the same file would each compact it
 * from their own memory and drop the other's ids, which would then be printed again after a restart.
 * The lock is `<store>.lock` (src/lock-file.ts); one whose owner is gone is taken over.
 */
import { UsageError } from '../../errors.js';
import { tryLockFile } from '../../lock-file.js';

/** Takes the lock or throws a UsageError naming `input` (where the file's path came from); returns the release function. */
export function lockSeenFile(storePath: string, input = 'store'): () => void {
  const lockPath = `${storePath}.lock`;
  const lock = tryLockFile(lockPath);
  if (lock.acquired) return lock.release;
  if (lock.owner !== undefined) {
    throw new UsageError(`${storePath} is in use by another listener (pid ${lock.owner})`, {
      input,
      reason: 'STORE_IN_USE',
      hint: `Stop that listener or give another journal file. If no listener is running, delete ${lockPath}.`,
    });
  }
  throw new UsageError(`could not lock ${storePath}: another listener keeps taking ${lockPath}`, {
    input,
    reason: 'STORE_IN_USE',
  });
}
