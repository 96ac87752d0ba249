/**
 * The durable side of the seen ids: an append-only journal, one JSON value per line, loaded at
 * start, fdatasync'd before a line counts, and compacted (rewritten from memory via temp file + fsync
 * + rename) once it holds `compactAfterLines` lines or COMPACT_AFTER_BYTES. The lines:
 *   "Webhook:…"                          done: the id is seen (the only line of stores before the journal)
 *   {"p":"Webhook:…","b":body,"h":{…}}   begun: printing/forwarding under way, with what it needs to finish
 *   {"x":"Webhook:…"}                    released: begun but given back to the service (a failed forward)
 *   {"q":"Webhook:…","v":true,"f":{…}}   queued: begun, its forward failed (the app's answer), nothing shown; a retry begins it again
 *   {"d":"Webhook:…","v":true,"f":{…}}   done, with its verification result and the app's answer (shown deliveries)
 * The newest `keepDone` done deliveries keep their begun line (raw body and headers) through
 * compaction, so a replay of the newest N from the journal can re-forward them (read.ts).
 * dedupe.ts states the crash contract this file keeps.
 */
import {
  closeSync,
  fdatasync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  write,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { DeliveryOutcome, SeenIds, InterruptedDelivery } from '../seen-ids.js';
import type { ForwardResult } from '../forward.js';
import type { SeenSet } from '../seen-set.js';
import { lockSeenFile } from './lock.js';

/** Journal files grow by whole bodies; past this size they are compacted even with few lines. */
const COMPACT_AFTER_BYTES = 32 * 1024 * 1024;

/**
 * Done deliveries kept whole (body, headers, outcome) for a replay of the newest N from the journal.
 * Bounds memory and file: at most this many bodies, each within the listener's body limit. The
 * replay verb's help and the README say the number (the verb table loads nothing of src/webhook).
 */
export const DEFAULT_KEEP_DONE = 500;

interface Batch {
  text: string;
  lines: number;
  /** Ids whose done line is in this batch: seen once it is durable. */
  ids: string[];
  /** Ids whose done or released line is in this batch: no longer begun once it is durable. */
  ended: string[];
  /** Done lines with an outcome: their begun line moves to `recent` once durable. */
  kept: Array<[string, string]>;
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export class SeenIdsFile implements SeenIds {
  private fd: number | undefined;
  /** Length of the file's whole lines: where the next append starts, and where a failed one is cut back to. */
  private length = 0;
  /** A failed append or reopen left the file or fd in doubt: cut back to `length` before the next append. */
  private damaged = false;
  private linesInFile = 0;
  /** Ids waiting for the next write; shares one promise among all its callers. */
  private next: Batch | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly unlock: () => void;
  /** Begun deliveries not yet durably done or released, by id: their journal line, kept by compaction. */
  private readonly begun = new Map<string, string>();
  /** Begun ids waiting for a local retry, with their latest "q" line. */
  private readonly queuedIds = new Map<string, string>();
  /** The newest done deliveries: their begun line and done line, oldest first, at most `keepDone`. */
  private readonly recent = new Map<string, string>();
  private readonly loadedInterrupted: InterruptedDelivery[] = [];

  constructor(
    private readonly path: string,
    private readonly seen: SeenSet,
    private readonly compactAfterLines: number,
    private readonly keepDone: number = DEFAULT_KEEP_DONE,
    input?: string,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.unlock = lockSeenFile(path, input);
    try {
      this.load();
      this.fd = openSync(path, 'a', 0o600);
      if (this.linesInFile >= compactAfterLines) this.compact();
    } catch (error) {
      if (this.fd !== undefined) closeSync(this.fd);
      this.unlock();
      throw error;
    }
  }

  readonly durable = true;

  get size(): number {
    return this.seen.size;
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  interrupted(): InterruptedDelivery[] {
    return this.loadedInterrupted;
  }

  begin(id: string, body: Uint8Array, headers: Record<string, string>): Promise<void> {
    // The body was parsed as UTF-8 JSON (fatal decoder) before it got here: as a JSON string it
    // round-trips to the same bytes, which the forwarded signature needs.
    const line = `{"p":${JSON.stringify(id)},"b":${JSON.stringify(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'))},"h":${JSON.stringify(headers)}}\n`;
    this.begun.set(id, line);
    this.queuedIds.delete(id);
    return this.append(line);
  }

  queue(id: string, outcome?: DeliveryOutcome): Promise<void> | undefined {
    if (!this.begun.has(id) || this.closed) return undefined;
    const line = `${JSON.stringify({ q: id, ...outcomeFields(outcome) })}\n`;
    this.queuedIds.set(id, line);
    // A lost queue line only means the restart marks the delivery redelivered; the listener still
    // waits for it before answering, so a replay of the failed ones finds what the service was told.
    return this.append(line);
  }

  release(id: string): void {
    if (!this.begun.has(id) || this.closed) return;
    // Not waited for: a lost release line only means the restart finishes the delivery itself.
    this.append(`{"x":${JSON.stringify(id)}}\n`, undefined, id);
  }

  record(id: string, outcome?: DeliveryOutcome): Promise<void> {
    if (outcome === undefined || !this.begun.has(id)) return this.append(JSON.stringify(id) + '\n', id, id);
    const line = `${JSON.stringify({ d: id, ...outcomeFields(outcome) })}\n`;
    return this.append(line, id, id, line);
  }

  private append(line: string, seenId?: string, endedId?: string, doneLine?: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('seen ids are closed'));
    let batch = this.next;
    if (batch === undefined) {
      batch = this.next = newBatch();
      // Deferred to the check phase so deliveries parsed in the same poll phase share one fsync.
      if (this.flushing === undefined) setImmediate(() => this.startFlushing());
    }
    batch.text += line;
    batch.lines++;
    if (seenId !== undefined) batch.ids.push(seenId);
    if (endedId !== undefined) batch.ended.push(endedId);
    if (doneLine !== undefined) batch.kept.push([endedId!, doneLine]);
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
    if (this.fd !== undefined) closeSync(this.fd);
    this.unlock();
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
      const bytes = Buffer.from(batch.text, 'utf8');
      try {
        if (this.damaged) this.repair();
        await appendDurably(this.fd!, bytes);
      } catch (error) {
        // A part of this batch may be on disk without its newline; the next append would glue its
        // first id to that fragment and the id would not load after a restart.
        this.damaged = true;
        batch.reject(error);
        continue;
      }
      for (const id of batch.ids) this.seen.add(id);
      for (const [id, line] of batch.kept) this.keep(id, line);
      for (const id of batch.ended) {
        this.begun.delete(id);
        this.queuedIds.delete(id);
      }
      this.length += bytes.length;
      this.linesInFile += batch.lines;
      batch.resolve();
      if (this.linesInFile >= this.compactAfterLines || this.length >= COMPACT_AFTER_BYTES) {
        try {
          this.compact();
        } catch {
          // Before the rename the old file is intact; after it, `damaged` makes the next batch reopen.
        }
      }
    }
  }

  /** Moves a done delivery's begun line to `recent` (with its done line), dropping the oldest past `keepDone`. */
  private keep(id: string, doneLine: string): void {
    const begun = this.begun.get(id);
    if (begun === undefined || this.keepDone <= 0) return;
    this.recent.delete(id);
    this.recent.set(id, begun + doneLine);
    if (this.recent.size > this.keepDone) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** Cuts the file back to its whole lines (reopening it if need be), durably, before appending again. */
  private repair(): void {
    if (this.fd === undefined) this.fd = openSync(this.path, 'a', 0o600);
    ftruncateSync(this.fd, this.length);
    fsyncSync(this.fd);
    this.damaged = false;
  }

  /** Reads the journal back, oldest first, and cuts a torn last line (an append whose fsync never finished). */
  private load(): void {
    let data: Buffer;
    try {
      data = readFileSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // Bytes, not text: a damaged tail need not be UTF-8, and the cut must fall on the real offset.
    const end = data.lastIndexOf(0x0a) + 1;
    if (end < data.length) {
      const fd = openSync(this.path, 'r+');
      try {
        ftruncateSync(fd, end);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    this.length = end;
    for (const line of data.toString('utf8', 0, end).split('\n')) {
      if (line === '') continue;
      this.linesInFile++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a damaged line cannot name an id we acknowledged; skip it rather than refuse to start
      }
      if (typeof value === 'string') {
        this.seen.add(value);
        this.begun.delete(value);
        this.queuedIds.delete(value);
      } else if (isDone(value)) {
        this.seen.add(value.d);
        this.keep(value.d, line + '\n');
        this.begun.delete(value.d);
        this.queuedIds.delete(value.d);
      } else if (isBegun(value)) {
        if (!this.seen.has(value.p)) this.begun.set(value.p, line + '\n');
        this.queuedIds.delete(value.p);
      } else if (isQueued(value)) {
        if (this.begun.has(value.q)) this.queuedIds.set(value.q, line + '\n');
      } else if (isReleased(value)) {
        this.begun.delete(value.x);
        this.queuedIds.delete(value.x);
      }
    }
    for (const line of this.begun.values()) {
      const { p, b, h } = JSON.parse(line) as { p: string; b: string; h: Record<string, string> };
      this.loadedInterrupted.push({ id: p, body: Buffer.from(b, 'utf8'), headers: h, queued: this.queuedIds.has(p) });
    }
  }

  /**
   * Rewrites the file from the in-memory set. It runs between batches, so no append races it; it is
   * synchronous because it is rare (every `compactAfterLines - maxIds` new ids) and short.
   */
  private compact(): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    let text = '';
    // A kept done delivery is written as its begun and done lines (the done line marks it seen), not
    // as a bare id first: a begun line after its id would not load as begun.
    for (const id of this.seen.values()) if (!this.recent.has(id)) text += JSON.stringify(id) + '\n';
    for (const lines of this.recent.values()) text += lines;
    for (const [id, line] of this.begun) text += line + (this.queuedIds.get(id) ?? '');
    const bytes = Buffer.from(text, 'utf8');
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    syncDirectory(dirname(this.path));
    // From here the path is the new file: the old fd must not be appended to again.
    this.length = bytes.length;
    this.linesInFile = this.seen.size + this.recent.size + this.begun.size + this.queuedIds.size;
    const old = this.fd;
    this.fd = undefined;
    if (old !== undefined) closeSync(old);
    try {
      this.fd = openSync(this.path, 'a', 0o600);
    } catch (error) {
      this.damaged = true;
      throw error;
    }
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
  return { text: '', lines: 0, ids: [], ended: [], kept: [], promise, resolve, reject };
}

function isBegun(value: unknown): value is { p: string; b: string; h: Record<string, string> } {
  const v = value as { p?: unknown; b?: unknown; h?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.p === 'string' &&
    typeof v.b === 'string' &&
    typeof v.h === 'object' &&
    v.h !== null
  );
}

function isDone(value: unknown): value is { d: string } {
  return typeof value === 'object' && value !== null && typeof (value as { d?: unknown }).d === 'string';
}

/** The outcome as journal fields: "v" verified, "f" the app's answer (no body content, as ForwardResult). */
function outcomeFields(outcome: DeliveryOutcome | undefined): { v?: boolean; f?: ForwardResult } {
  if (outcome === undefined) return {};
  return { v: outcome.verified, ...(outcome.forward && { f: outcome.forward }) };
}

function isQueued(value: unknown): value is { q: string } {
  return typeof value === 'object' && value !== null && typeof (value as { q?: unknown }).q === 'string';
}

function isReleased(value: unknown): value is { x: string } {
  return typeof value === 'object' && value !== null && typeof (value as { x?: unknown }).x === 'string';
}

function appendDurably(fd: number, bytes: Buffer): Promise<void> {
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
