/**
 * Remembers which webhook deliveries were processed, so an at-least-once delivery is acted on once.
 *
 * In memory: a bounded SeenSet (default 100k ids; older ids are forgotten). With a store path, also an
 * append-only file (seen-file.ts), locked to one listener (seen-file-lock.ts).
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
import { SeenIdsFile } from './seen-file.js';
import type { SeenIds } from './seen-ids.js';
import { SeenSet } from './seen-set.js';

export type { SeenIds } from './seen-ids.js';

export interface DedupeOptions {
  /** Append-only id file; without it the set lives in memory only. */
  storePath?: string;
  /** Ids remembered (memory and, after compaction, disk). Default 100_000. */
  maxIds?: number;
  /** Compact the file once it holds this many lines. Default 2 × maxIds. */
  compactAfterLines?: number;
}


/** Throws UsageError({ field: '--store' }) when another listener holds the store file. */
export function openSeenIds(options: DedupeOptions = {}): SeenIds {
  const maxIds = options.maxIds ?? 100_000;
  const seen = new SeenSet(maxIds);
  if (options.storePath === undefined) return memoryStore(seen);
  return new SeenIdsFile(options.storePath, seen, options.compactAfterLines ?? 2 * maxIds);
}

function memoryStore(seen: SeenSet): SeenIds {
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
