/**
 * Group commit: lines appended while a write+fdatasync is under way wait for the next one, so N
 * concurrent deliveries cost one write and one fdatasync, not N. A batch shares one promise among
 * all its callers and notes what becomes true once it is durable.
 */
import { fdatasync, write } from 'node:fs';

/** Where a line is in the file; -1 until its batch is written. */
export interface Place {
  offset: number;
  length: number;
}

export class Batch {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  lines = 0;
  /** Ids whose done (or seen) line is in this batch: seen once it is durable. */
  readonly ids: string[] = [];
  /** Ids whose done or released line is in this batch: no longer begun once it is durable. */
  readonly ended: string[] = [];
  /** Done lines with an outcome: their begun line moves to the kept recent ones once durable. */
  readonly kept: Array<[string, string]> = [];
  /** Begun lines of this batch, with their offset inside it. */
  readonly places: Array<[Place, number]> = [];
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A failed batch is reported to each caller through the promise; no unhandled rejection if none waits.
    this.promise.catch(() => {});
  }

  add(line: string): void {
    const bytes = Buffer.from(line, 'utf8');
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.lines++;
  }

  /** The last line added is a begun line: its place is known once the batch is written. */
  place(place: Place): void {
    const last = this.chunks[this.chunks.length - 1]!;
    place.length = last.length;
    this.places.push([place, this.size - last.length]);
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
  }
}

export function appendDurably(fd: number, bytes: Buffer): Promise<void> {
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
