/**
 * The durable side of the seen ids: an append-only journal (lines in format.ts), checked at open
 * (open.ts), fdatasync'd before a line counts (batch.ts), and compacted (compact.ts) once it holds
 * twice what a compaction keeps, so each byte is rewritten a bounded number of times and a
 * delivery's cost stays flat however long the journal grows.
 *
 * Memory holds ids and where lines are, not bodies: a begun delivery (in flight, or queued for a
 * local retry of its forward) is a position in the file, read back when it is retried or resumed.
 * The newest `keepDone` done deliveries keep their begun line through compaction, so a replay of
 * the newest N from the journal can re-forward them (read.ts). dedupe.ts states the crash contract.
 */
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeliveryOutcome, SeenIds, InterruptedDelivery, BegunDelivery } from '../seen-ids.js';
import type { SeenSet } from '../seen-set.js';
import { lockSeenFile } from './lock.js';
import { begunLine, MARKER_LINE, outcomeLine, parseLine, releasedLine, seenLine } from './format.js';
import { openJournal } from './open.js';
import { appendDurably, Batch, type Place } from './batch.js';
import { compactJournal, type Live } from './compact.js';

/** Below this size a journal is not compacted for its bytes (only for its lines). */
const COMPACT_AFTER_BYTES = 32 * 1024 * 1024;

/**
 * Done deliveries kept whole (body, headers, outcome) for a replay of the newest N from the journal.
 * The replay verb's help and the README say the number (the verb table loads nothing of src/webhook).
 */
export const DEFAULT_KEEP_DONE = 500;

export interface JournalOptions {
  compactAfterLines: number;
  keepDone?: number;
  /** Where the path came from, named by errors. */
  input?: string;
  /** Move a damaged tail aside instead of refusing the file. */
  repair?: boolean;
}

export class Journal implements SeenIds {
  private fd: number | undefined;
  /** Length of the file's whole lines: where the next append starts, and where a failed one is cut back to. */
  private length = 0;
  /** A failed append left the file in doubt: cut back to `length` before the next append. */
  private damaged = false;
  private linesInFile = 0;
  /** What the last compaction kept: the next one waits until the file holds twice as much. */
  private kept = { lines: 0, bytes: 0 };
  private next: Batch | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly unlock: () => void;
  private readonly live: Live = { begun: new Map(), queued: new Map(), recent: new Map() };
  private readonly loadedInterrupted: InterruptedDelivery[] = [];
  private readonly keepDone: number;
  /** What opening the file moved aside (a torn or damaged tail), for the user to be told. */
  readonly notes: string[];

  constructor(
    private readonly path: string,
    private readonly seen: SeenSet,
    private readonly options: JournalOptions,
  ) {
    this.keepDone = options.keepDone ?? DEFAULT_KEEP_DONE;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.unlock = lockSeenFile(path, options.input);
    try {
      const opened = openJournal(path, options.input ?? 'store', options.repair ?? false);
      this.fd = opened.fd;
      this.notes = opened.notes;
      this.load(opened.data);
      if (this.linesInFile >= options.compactAfterLines) this.compact();
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

  /** The body and headers of a begun delivery, read back from the file; undefined once it is no longer begun. */
  readBegun(id: string): BegunDelivery | undefined {
    const place = this.live.begun.get(id);
    if (place === undefined || place.offset < 0 || this.fd === undefined) return undefined;
    const bytes = Buffer.alloc(place.length);
    readSync(this.fd, bytes, 0, place.length, place.offset);
    const line = parseLine(bytes.toString('utf8', 0, place.length - 1));
    if (line?.kind !== 'begun' || line.id !== id) return undefined;
    return { body: Buffer.from(line.body, 'utf8'), headers: line.headers };
  }

  begin(id: string, body: Uint8Array, headers: Record<string, string>): Promise<void> {
    const place: Place = { offset: -1, length: 0 };
    this.live.begun.set(id, place);
    this.live.queued.delete(id);
    return this.append(begunLine(id, body, headers), (b) => b.place(place));
  }

  queue(id: string, outcome?: DeliveryOutcome): Promise<void> | undefined {
    if (!this.live.begun.has(id) || this.closed) return undefined;
    const line = outcomeLine('q', id, outcome);
    this.live.queued.set(id, line);
    // A lost queue line only means the restart marks the delivery redelivered; the listener still
    // waits for it before answering, so a replay of the failed ones finds what the service was told.
    return this.append(line);
  }

  release(id: string): void {
    if (!this.live.begun.has(id) || this.closed) return;
    // Not waited for: a lost release line only means the restart finishes the delivery itself.
    this.append(releasedLine(id), (b) => b.ended.push(id));
  }

  record(id: string, outcome?: DeliveryOutcome): Promise<void> {
    const kept = outcome !== undefined && this.live.begun.has(id);
    const line = kept ? outcomeLine('d', id, outcome) : seenLine(id);
    return this.append(line, (b) => {
      b.ids.push(id);
      b.ended.push(id);
      if (kept) b.kept.push([id, line]);
    });
  }

  private append(line: string, note?: (batch: Batch) => void): Promise<void> {
    if (this.closed) return Promise.reject(new Error('seen ids are closed'));
    let batch = this.next;
    if (batch === undefined) {
      batch = this.next = new Batch();
      // Deferred to the check phase so deliveries parsed in the same poll phase share one fsync.
      if (this.flushing === undefined) setImmediate(() => this.startFlushing());
    }
    batch.add(line);
    note?.(batch);
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
      const bytes = batch.bytes();
      try {
        if (this.damaged) this.cutBack();
        await appendDurably(this.fd!, bytes);
      } catch (error) {
        // A part of this batch may be on disk without its newline; the next append would glue its
        // first line to that fragment, and that line would not load after a restart.
        this.damaged = true;
        batch.reject(error);
        continue;
      }
      for (const [place, at] of batch.places) place.offset = this.length + at;
      for (const id of batch.ids) this.seen.add(id);
      for (const [id, line] of batch.kept) this.keep(id, line);
      for (const id of batch.ended) {
        this.live.begun.delete(id);
        this.live.queued.delete(id);
      }
      this.length += bytes.length;
      this.linesInFile += batch.lines;
      batch.resolve();
      // The deliveries this batch began now print, and their done lines should ride the very next
      // fdatasync rather than the one after it: a printed line leaves stdout at the end of a turn
      // of the event loop (commands/webhook/listen-output.ts), the done line is appended on the next.
      if (batch.places.length > 0) await nextTurns(2);
      const { compactAfterLines } = this.options;
      if (
        this.linesInFile >= Math.max(compactAfterLines, 2 * this.kept.lines) ||
        this.length >= Math.max(COMPACT_AFTER_BYTES, 2 * this.kept.bytes)
      ) {
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
    const begun = this.live.begun.get(id);
    const { recent } = this.live;
    if (begun === undefined || this.keepDone <= 0) return;
    recent.delete(id);
    recent.set(id, { begun, done: doneLine });
    if (recent.size > this.keepDone) recent.delete(recent.keys().next().value as string);
  }

  /** Cuts the file back to its whole lines (reopening it if need be), durably, before appending again. */
  private cutBack(): void {
    if (this.fd === undefined) this.fd = openSync(this.path, 'a+', 0o600);
    ftruncateSync(this.fd, this.length);
    fsyncSync(this.fd);
    this.damaged = false;
  }

  /** Reads the checked journal back, oldest first, keeping where each begun line is. */
  private load(data: Buffer): void {
    const { begun, queued } = this.live;
    let start = MARKER_LINE.length;
    while (start < data.length) {
      const end = data.indexOf(0x0a, start);
      const line = parseLine(data.toString('utf8', start, end));
      const text = () => data.toString('utf8', start, end + 1);
      this.linesInFile++;
      if (line?.kind === 'seen' || line?.kind === 'done') {
        this.seen.add(line.id);
        if (line.kind === 'done') this.keep(line.id, text());
        begun.delete(line.id);
        queued.delete(line.id);
      } else if (line?.kind === 'begun') {
        if (!this.seen.has(line.id)) begun.set(line.id, { offset: start, length: end + 1 - start });
        queued.delete(line.id);
      } else if (line?.kind === 'queued') {
        if (begun.has(line.id)) queued.set(line.id, text());
      } else if (line?.kind === 'released') {
        begun.delete(line.id);
        queued.delete(line.id);
      }
      start = end + 1;
    }
    this.length = data.length;
    for (const id of begun.keys()) {
      this.loadedInterrupted.push({ id, queued: queued.has(id), read: () => this.readBegun(id) });
    }
  }

  private compact(): void {
    const kept = compactJournal(this.path, this.fd!, this.seen, this.live);
    // From here the path is the new file: the old fd must not be appended to again.
    this.length = kept.bytes;
    this.linesInFile = kept.lines;
    this.kept = kept;
    const old = this.fd;
    this.fd = undefined;
    if (old !== undefined) closeSync(old);
    try {
      this.fd = openSync(this.path, 'a+', 0o600);
    } catch (error) {
      this.damaged = true;
      throw error;
    }
  }
}

/** Resolves after `n` turns of the event loop (each a check phase: what setImmediate callbacks queued there runs first). */
async function nextTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
