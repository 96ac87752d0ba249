/**
 * Remembers which webhook deliveries were processed, so an at-least-once delivery is acted on once.
 *
 * In memory: a bounded SeenSet (default 100k ids; older ids are forgotten). With a store path, also an
 * append-only journal file (journal/journal-file.ts), locked to one listener (journal/lock.ts).
 *
 * Crash semantics (with a journal file). A delivery that is printed or forwarded goes through the journal:
 *   verify → begin(id, body) durable → forward → print (written to stdout's fd) → record(id) durable → answer 200.
 * - Crash before begin is durable: nothing is on disk and the service got no 2xx, so it redelivers;
 *   after restart the id is unknown and the retry is processed as new. Nothing is lost.
 * - Crash between begin and record: the event may or may not have been printed or forwarded. At
 *   restart the journal hands it back (interrupted()) and the listener finishes it from the journaled
 *   body: printed again marked "redelivered", forwarded again. The service's own redelivery waits for
 *   that and is then answered 200 as a duplicate. Only deliveries in flight at the crash (never one
 *   already acknowledged: the 200 follows the durable record) can be shown twice, and they say so.
 * - Crash after record is durable: the redelivery is found at load and answered 200 as a duplicate.
 * - A crash mid-append can leave a torn last line. Its fsync never completed, so nothing that depends
 *   on it happened: open moves it aside into a file next to the journal and says so (journal/open.ts).
 *   A failed append (disk full) is cut back to the last whole line before the next one, and its
 *   deliveries get 500 (the service retries).
 * Filtered events (not printed, not forwarded) have nothing to finish: they are only recorded.
 */
import { Journal } from './journal/journal-file.js';
import { SeenSet } from './seen-set.js';
import type { SeenIds } from './seen-ids.js';

export type { InterruptedDelivery, SeenIds } from './seen-ids.js';

export interface DedupeOptions {
  /** Append-only id file; without it the set lives in memory only. */
  storePath?: string;
  /** Ids remembered (memory and, after compaction, disk). Default 100_000. */
  maxIds?: number;
  /** Compact the file once it holds this many lines. Default 2 × maxIds. */
  compactAfterLines?: number;
  /** Done deliveries kept whole (body, headers, outcome) for a replay of the newest from the journal. Default DEFAULT_KEEP_DONE. */
  keepDone?: number;
  /** The input the file's path came from, named by errors. Default `store`. */
  input?: string;
  /** A damaged journal: move the damaged tail aside into a file next to it, instead of refusing it. */
  repair?: boolean;
}

/** Throws a UsageError naming `input` when another listener holds the store file. */
export function openSeenIds(options: DedupeOptions = {}): SeenIds {
  const maxIds = options.maxIds ?? 100_000;
  const seen = new SeenSet(maxIds);
  if (options.storePath === undefined) return memoryStore(seen);
  return new Journal(options.storePath, seen, {
    compactAfterLines: options.compactAfterLines ?? 2 * maxIds,
    keepDone: options.keepDone,
    input: options.input,
    repair: options.repair,
  });
}

function memoryStore(seen: SeenSet): SeenIds {
  return {
    has: (id) => seen.has(id),
    begin: () => undefined,
    release: () => {},
    queue: () => undefined,
    readBegun: () => undefined,
    interrupted: () => [],
    notes: [],
    durable: false,
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
