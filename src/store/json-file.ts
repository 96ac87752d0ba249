/**
 * One JSON object per file. Writes go through conf: it writes to a temp file and renames it over the
 * old one (atomically), so a crash mid-write leaves the previous version intact, and it creates
 * files 0600. Reads go straight to disk with the same parsing: a read needs none of conf's schema
 * validation, migrations or change events, and most commands only read (README "Performance").
 * Reads always go to disk, so a caller holding the lock sees the latest write of any process. A
 * file that does not parse becomes a StoreError naming it.
 */
import Conf from 'conf';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { PRIVATE_FILE_MODE } from './permissions.js';

/** The content of one store file: always a JSON object. */
export type JsonObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `<dir>/<name>.json`: where conf keeps the file named `name`. */
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

/** The current content of `<dir>/<name>.json`, {} when it does not exist (as conf reads it). */
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

/**
 * Replaces the content of `<dir>/<name>.json` atomically (temp file, then rename), 0600. Callers hold
 * the store lock (lock.ts withStoreLock), which lets the next open remove a temp file a kill left.
 */
export function writeJsonFile(dir: string, name: string, value: JsonObject): void {
  const file = jsonFilePath(dir, name);
  try {
    const conf = new Conf<JsonObject>({
      cwd: dir,
      configName: name,
      configFileMode: PRIVATE_FILE_MODE, // conf creates every store file owner-only
      // Profile names may contain dots; they are keys, not paths.
      accessPropertiesByDotNotation: false,
      deserialize: (text) => parseJsonObject(text, file),
    });
    conf.store = value;
  } catch (err) {
    throw asStoreError(err, file, 'write');
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
