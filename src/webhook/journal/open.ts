/**
 * Opening a journal file, with the checks that come before any write: svc writes only into a journal
 * it created itself (MARKER on the first line), never through a symbolic link, and never past a
 * damaged line it did not report. A damaged line is refused naming its number; with `repair` the
 * damaged line and everything after it move aside into a file next to the journal. A torn last line
 * (an append a crash interrupted, never acknowledged) is always moved aside, and said so.
 */
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, linkSync, lstatSync, openSync } from 'node:fs';
import { readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { MARKER_LINE, parseLine } from './format.js';

export interface OpenedJournal {
  fd: number;
  /** The file's content once checked (and repaired): MARKER, then whole journal lines. */
  data: Buffer;
  /** What was moved aside, for the user to be told. */
  notes: string[];
}

const OPEN_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW;

export function openJournal(path: string, input: string, repair: boolean): OpenedJournal {
  let kind: 'missing' | 'link' | 'file' | 'other';
  try {
    const stat = lstatSync(path);
    kind = stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    kind = 'missing';
  }
  if (kind === 'missing') return { fd: create(path), data: MARKER_LINE, notes: [] };
  if (kind === 'link')
    throw new UsageError(
      `${path} is a symbolic link: the journal is written only at its own path, never through a link`,
      {
        input,
        reason: 'STORE_IS_LINK',
        hint: 'Give the path of the journal file itself, or a new file name (svc creates it).',
      },
    );
  if (kind === 'other') throw notAJournal(path, input, 'it is not a regular file');
  const fd = openSync(path, OPEN_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw notAJournal(path, input, 'it is not a regular file');
    const data = readFileSync(fd);
    if (data.length < MARKER_LINE.length || !data.subarray(0, MARKER_LINE.length).equals(MARKER_LINE))
      throw notAJournal(path, input, "its first line is not svc's journal marker");
    const notes: string[] = [];
    const checked = checkLines(path, fd, data, input, repair, notes);
    return { fd, data: checked, notes };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Creates the journal whole (marker written and synced in a temp file, then linked in place): never half-made. */
function create(path: string): number {
  const tmp = `${path}.${process.pid}.new`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, MARKER_LINE);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path); // fails if something appeared at the path meanwhile: that file is not ours
  } finally {
    unlinkSync(tmp);
  }
  syncDirectory(dirname(path));
  return openSync(path, OPEN_FLAGS);
}

/** Checks every line after the marker; returns the data the journal keeps. */
function checkLines(path: string, fd: number, data: Buffer, input: string, repair: boolean, notes: string[]): Buffer {
  let start = MARKER_LINE.length;
  let lineNo = 2;
  while (start < data.length) {
    const end = data.indexOf(0x0a, start);
    if (end === -1) {
      // A torn last line: its fsync never finished, so nothing that depends on it happened.
      const aside = moveAside(path, fd, data, start, 'torn');
      notes.push(
        `${path}: line ${lineNo} was cut short (an append a crash interrupted); moved its ${data.length - start} bytes aside into ${aside}`,
      );
      return data.subarray(0, start);
    }
    // Bytes, not text: a damaged tail need not be UTF-8.
    if (parseLine(data.toString('utf8', start, end)) === undefined) {
      if (!repair)
        throw new UsageError(`${path} is damaged at line ${lineNo}: it is not a journal line`, {
          input,
          reason: 'STORE_DAMAGED',
          hint: `Open it with repair: line ${lineNo} and everything after it move aside into a file next to ${basename(path)}, and the listener starts with the lines before it.`,
        });
      const aside = moveAside(path, fd, data, start, 'damaged');
      notes.push(
        `${path}: line ${lineNo} was damaged; moved it and everything after it (${data.length - start} bytes) aside into ${aside} (--repair)`,
      );
      return data.subarray(0, start);
    }
    start = end + 1;
    lineNo++;
  }
  return data;
}

/** Writes data[from..] into a new file beside the journal (synced), then cuts the journal back to `from`. */
function moveAside(path: string, fd: number, data: Buffer, from: number, why: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${path}.${why}-${stamp}`;
  const out = openSync(aside, 'wx', 0o600);
  try {
    writeSync(out, data, from, data.length - from);
    fsyncSync(out);
  } finally {
    closeSync(out);
  }
  syncDirectory(dirname(path));
  ftruncateSync(fd, from);
  fsyncSync(fd);
  return aside;
}

function notAJournal(path: string, input: string, why: string): UsageError {
  return new UsageError(`${path} is not a listener journal (${why}); svc writes only to a journal it created`, {
    input,
    reason: 'STORE_NOT_JOURNAL',
    hint: 'Give a new file name (svc creates the journal there) or the journal a listener made.',
  });
}

/** Makes a rename or link durable; some filesystems refuse fsync on a directory, which is then moot. */
export function syncDirectory(dir: string): void {
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
