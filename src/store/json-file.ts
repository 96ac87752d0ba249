/**
 * One JSON object per file. A write goes to a temp file named after the writing process
 * (`<file>.<pid>.tmp`, created 0600, fsynced), which is then renamed over the old file (atomically),
 * so a crash mid-write leaves the previous version intact. A process killed between creating the
 * temp file and the rename leaves it behind (empty, or holding a key): the next store open removes
 * every temp file whose process is gone (permissions.ts), at once rather than after a delay.
 * Reads always go to disk, so a caller holding the lock sees the latest write of any process. A
 * file that does not parse becomes a StoreError naming it.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { PRIVATE_FILE_MODE } from './permissions.js';

/** The content of one store file: always a JSON object. */
export type JsonObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `<dir>/<name>.json`: the file of the store named `name`. */
export function jsonFilePath(dir: string, name: string): string {
  return join(dir, `${name}.json`);
}

/** The text of a store file as a JSON object, or a StoreError naming the file. */
function parseJsonObject(text: string, file: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // No cause: the parser's message quotes the text around the bad token, a key or secret here.
    throw new StoreError(file, `The store file ${file} is corrupt: it is not valid JSON`);
  }
  if (!isPlainObject(value)) throw new StoreError(file, `The store file ${file} is corrupt: expected a JSON object`);
  return value;
}

/** The current content of `<dir>/<name>.json`, {} when it does not exist. */
export function readJsonFile(dir: string, name: string): JsonObject {
  const file = jsonFilePath(dir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw asStoreError(err, file);
  }
  return parseJsonObject(text, file);
}

/** Where this process writes `file` before renaming it into place (permissions.ts reads the pid back). */
export function tempFileFor(file: string, pid = process.pid): string {
  return `${file}.${pid}.tmp`;
}

/** Replaces the content of `<dir>/<name>.json` atomically (temp file, fsync, rename), 0600. */
export function writeJsonFile(dir: string, name: string, value: JsonObject): void {
  const file = jsonFilePath(dir, name);
  const temp = tempFileFor(file);
  try {
    // 'w', not 'wx': a temp file of this pid can only be a dead process's (pids are reused).
    const fd = openSync(temp, 'w', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, JSON.stringify(value, undefined, '\t'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    removeQuietly(temp);
    throw asStoreError(err, file, 'write');
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // never made, or gone already
  }
}

/** Deletes `<dir>/<name>.json`; one already gone is not an error. */
export function deleteJsonFile(dir: string, name: string): void {
  const file = jsonFilePath(dir, name);
  try {
    unlinkSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new StoreError(file, `Could not delete ${file}: ${code ?? (err as Error).message}`, { cause: err });
  }
}

function asStoreError(err: unknown, file: string, action: 'read' | 'write' = 'read'): StoreError {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: string }).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (err as Error).message);
  return new StoreError(file, `Could not ${action} the store file ${file}: ${why}`, {
    cause: err,
    hint: code === 'EACCES' || code === 'EPERM' ? `Check the owner and permissions of ${file}.` : undefined,
  });
}
