/**
 * One listener per journal file. Two processes appending to the same file would each compact it
 * from their own memory and drop the other's ids, which would then be printed again after a restart.
 * The lock is `<store>.lock` (src/lock-file.ts); one whose owner is gone is taken over.
 */
import { UsageError } from '../errors.js';
import { tryLockFile } from '../lock-file.js';

/** Takes the lock or throws a UsageError naming `label` (the caller's name for the file); returns the release function. */
export function lockSeenFile(storePath: string, label = 'store'): () => void {
  const lockPath = `${storePath}.lock`;
  const lock = tryLockFile(lockPath);
  if (lock.acquired) return lock.release;
  if (lock.owner !== undefined) {
    throw new UsageError(`${label} ${storePath} is in use by another listener (pid ${lock.owner})`, {
      input: label,
      hint: `Stop that listener or pass another ${label} file. If no listener is running, delete ${lockPath}.`,
    });
  }
  throw new UsageError(`could not lock ${label} ${storePath}: another listener keeps taking ${lockPath}`, {
    input: label,
  });
}
