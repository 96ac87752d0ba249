/**
 * Compaction: the journal rewritten as what it means now (temp file, fsync, rename, folder fsync),
 * begun lines copied from the old file in bounded chunks, so memory never holds the bodies.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SeenSet } from '../seen-set.js';
import type { Place } from './batch.js';
import { MARKER_LINE, seenLine } from './format.js';
import { syncDirectory } from './open.js';

/** What the journal holds besides the seen ids: begun deliveries, their queued lines, the newest done ones. */
export interface Live {
  /** Begun deliveries not yet durably done or released, by id: where their line is. */
  begun: Map<string, Place>;
  /** Begun ids waiting for a local retry, with their latest "q" line. */
  queued: Map<string, string>;
  /** The newest done deliveries: their begun line and done line, oldest first. */
  recent: Map<string, { begun: Place; done: string }>;
}

const CHUNK = 1024 * 1024;

/** Writes the compacted journal over `path`; moves every place to its new offset. Returns what it holds. */
export function compactJournal(path: string, fd: number, seen: SeenSet, live: Live): { lines: number; bytes: number } {
  const tmp = `${path}.${process.pid}.tmp`;
  const out = openSync(tmp, 'w', 0o600);
  const moved: Array<[Place, number]> = [];
  let buffer = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let written = 0;
  let lines = 0;
  const flush = () => {
    if (used > 0) writeSync(out, buffer, 0, used);
    written += used;
    used = 0;
  };
  const room = (n: number) => {
    if (used + n > buffer.length) flush();
    if (n > buffer.length) buffer = Buffer.allocUnsafe(n);
  };
  const text = (line: string) => {
    const n = Buffer.byteLength(line);
    room(n);
    buffer.write(line, used, 'utf8');
    used += n;
    lines++;
  };
  const copy = (place: Place) => {
    room(place.length);
    readSync(fd, buffer, used, place.length, place.offset);
    moved.push([place, written + used]);
    used += place.length;
    lines++;
  };
  try {
    room(MARKER_LINE.length);
    MARKER_LINE.copy(buffer, 0);
    used = MARKER_LINE.length; // the marker is not counted as a line: thresholds count journal lines
    // A kept done delivery is written as its begun and done lines (the done line marks it seen), not
    // as a bare id first: a begun line after its id would not load as begun.
    for (const id of seen.values()) if (!live.recent.has(id)) text(seenLine(id));
    for (const { begun, done } of live.recent.values()) {
      copy(begun);
      text(done);
    }
    // Begun lines of the batch not yet written (offset -1) are in that batch, appended after this.
    for (const [id, place] of live.begun) {
      if (place.offset < 0) continue;
      copy(place);
      const queued = live.queued.get(id);
      if (queued !== undefined) text(queued);
    }
    flush();
    fsyncSync(out);
    closeSync(out);
    renameSync(tmp, path);
  } catch (error) {
    try {
      closeSync(out);
    } catch {}
    rmSync(tmp, { force: true });
    throw error;
  }
  syncDirectory(dirname(path));
  for (const [place, offset] of moved) place.offset = offset;
  return { lines, bytes: written };
}
