/**
 * Remembers which webhook deliveries were processed, so an at-least-once delivery is acted on once.
 *
 * In memory: a bounded SeenSet (default 100k ids; older ids are forgotten). With a store path, also an
 * append-only file with one JSON-encoded id per line, loaded at start and compacted (rewritten from
 * the in-memory set via temp file + fsync + rename) once it holds `compactAfterLines` lines.
 *
 * Crash semantics. The receiver handles an accepted delivery in this order:
 *   verify → record(id) resolves (line appended AND fdatasync'd) → print → answer 200.
 * - Crash before the line is appended: nothing is on disk and the service got no 2xx, so it redelivers;
 *   after restart the id is unknown, the retry is accepted and printed once. Nothing is lost.
 * - Crash after the event was printed: its id was durable before the print, so the redelivery (no 2xx
 *   was seen, or the service retries anyway) is found at load and answered 200 as a duplicate. Nothing
 *   is printed twice.
 * - A crash mid-append can leave a torn last line. Its fsync never completed, so its 200 was never
 *   sent: load cuts the file back to the last newline and the redelivery appends the id whole.
 * - The one window left is between the append and the print (one fdatasync, a few ms): a process killed
 *   exactly there has the id on record but never printed it, and the redelivery counts as a duplicate.
 *   stdout cannot take part in the commit, so exactly-once display across a crash is impossible; with
 *   the order above the failure is a skipped line, never a repeated one (the receiver's contract).
 *
 * Group commit: ids recorded while a write+fdatasync is in flight wait for the next one, so N concurrent
 * deliveries cost one write and one fdatasync, not N.
 */
import { closeSync, fdatasync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, write, writeSync } from 'node:fs';
import { dirname } from 'node:path';
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
  close(): Promise<void>;
}

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

interface Batch {
  text: string;
  ids: string[];
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

class FileDedupeStore implements DedupeStore {
  private fd: number;
  private linesInFile = 0;
  /** Ids waiting for the next write; shares one promise among all its callers. */
  private next: Batch | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly path: string, private readonly seen: SeenSet, private readonly compactAfterLines: number) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.load();
    this.fd = openSync(path, 'a', 0o600);
    if (this.linesInFile >= compactAfterLines) this.compact();
  }

  get size(): number {
    return this.seen.size;
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  record(id: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('dedupe store is closed'));
    let batch = this.next;
    if (batch === undefined) {
      batch = this.next = newBatch();
      // Deferred to the check phase so deliveries parsed in the same poll phase share one fsync.
      if (this.flushing === undefined) setImmediate(() => this.startFlushing());
    }
    batch.text += JSON.stringify(id) + '\n';
    batch.ids.push(id);
    return batch.promise;
  }

  async flush(): Promise<void> {
    while (this.flushing !== undefined || this.next !== undefined) {
      if (this.flushing === undefined) this.startFlushing();
      await this.flushing;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private startFlushing(): void {
    if (this.flushing !== undefined || this.next === undefined) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
      // A caller woken by the last batch may have recorded before this ran, seeing us still busy.
      if (this.next !== undefined) this.startFlushing();
    });
  }

  private async drain(): Promise<void> {
    while (this.next !== undefined) {
      const batch = this.next;
      this.next = undefined;
      try {
        await appendDurably(this.fd, batch.text);
      } catch (error) {
        batch.reject(error);
        continue;
      }
      for (const id of batch.ids) this.seen.add(id);
      this.linesInFile += batch.ids.length;
      batch.resolve();
      if (this.linesInFile >= this.compactAfterLines) {
        try {
          this.compact();
        } catch {
          // The old file is intact (rename is atomic); keep appending to it and try again next batch.
        }
      }
    }
  }

  /** Reads the ids back, oldest first, and cuts a torn last line (an append whose fsync never finished). */
  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      const fd = openSync(this.path, 'r+');
      try {
        ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    let start = 0;
    while (start < end) {
      const nl = text.indexOf('\n', start);
      const line = text.slice(start, nl);
      start = nl + 1;
      this.linesInFile++;
      try {
        const id: unknown = JSON.parse(line);
        if (typeof id === 'string') this.seen.add(id);
      } catch {
        // A damaged line cannot name an id we acknowledged; skip it rather than refuse to start.
      }
    }
  }

  /** Rewrites the file from the in-memory set. Runs between batches, so no append races it. */
  private compact(): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    let text = '';
    for (const id of this.seen.values()) text += JSON.stringify(id) + '\n';
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    syncDirectory(dirname(this.path));
    closeSync(this.fd);
    this.fd = openSync(this.path, 'a', 0o600);
    this.linesInFile = this.seen.size;
  }
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A failed batch is reported to each caller through the promise; no unhandled rejection if none waits.
  promise.catch(() => {});
  return { text: '', ids: [], promise, resolve, reject };
}

function appendDurably(fd: number, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  return new Promise((resolve, reject) => {
    const writeFrom = (offset: number) => {
      write(fd, bytes, offset, bytes.length - offset, null, (writeError, written) => {
        if (writeError) return reject(writeError);
        if (offset + written < bytes.length) return writeFrom(offset + written);
        fdatasync(fd, (syncError) => (syncError ? reject(syncError) : resolve()));
      });
    };
    writeFrom(0);
  });
}

/** Makes the rename itself durable; some filesystems refuse fsync on a directory, which is then moot. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
