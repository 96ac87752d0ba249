/**
 * Remembers which webhook deliveries were processed, so an at-least-once delivery is acted on once.
 *
 * In memory: a bounded SeenSet (default 100k ids; older ids are forgotten). With a store path, also an
 * append-only file (seen-file.ts), locked to one listener (store-lock.ts).
 *
 * Crash semantics. The receiver handles an accepted delivery in this order:
 *   verify → record(id) resolves (line appended AND fdatasync'd) → print → answer 200.
 * - Crash before the line is appended: nothing is on disk and the service got no 2xx, so it redelivers;
 *   after restart the id is unknown, the retry is accepted and printed once. Nothing is lost.
 * - Crash after the event was printed: its id was durable before the print, so the redelivery (no 2xx
 *   was seen, or the service retries anyway) is found at load and answered 200 as a duplicate. Nothing
 *   is printed twice.
 * - A crash mid-append can leave a torn last line. Its fsync never completed, so its 200 was never
 *   sent: load cuts the file back to the last newline and the redelivery appends the id whole. A failed
 *   append (disk full) is cut back the same way before the next one, and its deliveries get 500.
 * - The one window left is between the fdatasync completing and the print, within one tick (stdout
 *   writes are synchronous on Linux): a process killed exactly there has the id on record but never
 *   printed it, and the redelivery counts as a duplicate. stdout cannot take part in the commit, so exactly-once
 *   display across a crash is impossible; with the order above the failure is a skipped line, never a
 *   repeated one (the receiver's contract).
 *
 * Group commit: ids recorded while a write+fdatasync is in flight wait for the next one, so N concurrent
 * deliveries cost one write and one fdatasync, not N.
 */
import { FileDedupeStore } from './seen-file.js';
import { SeenSet } from './seen-set.js';

export interface DedupeOptions {
  /** Append-only id file; without it the set lives in memory only. */
  storePath?: string;
  /** Ids remembered (memory and, after compaction, disk). Default 100_000. */
  maxIds?: number;
  /** Compact the file once it holds this many lines. Default 2 × maxIds. */
  compactAfterLines?: number;
}

export interface DedupeStore {
  has(id: string): boolean;
  /**
   * Marks a processed id. In memory only: done at once, returns undefined (nothing to wait for).
   * With a store: resolves once the id is on disk; `has(id)` turns true at that moment. Rejects if
   * the write or fsync failed (the caller must then not acknowledge the delivery).
   */
  record(id: string): Promise<void> | undefined;
  readonly size: number;
  /** Resolves when everything recorded so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, then releases the store file. */
  close(): Promise<void>;
}

/** Throws UsageError({ field: '--store' }) when another listener holds the store file. */
export function openDedupeStore(options: DedupeOptions = {}): DedupeStore {
  const maxIds = options.maxIds ?? 100_000;
  const seen = new SeenSet(maxIds);
  if (options.storePath === undefined) return memoryStore(seen);
  return new FileDedupeStore(options.storePath, seen, options.compactAfterLines ?? 2 * maxIds);
}

function memoryStore(seen: SeenSet): DedupeStore {
  return {
    has: (id) => seen.has(id),
    record(id) {
      seen.add(id);
      return undefined;
    },
    get size() {
      return seen.size;
    },
    flush: async () => {},
    close: async () => {},
  };
}
