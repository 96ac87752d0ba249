/**
 * One JSON object per file, through conf: conf writes to a temp file and renames it over the old
 * one (atomically), so a crash mid-write leaves the previous version intact, and it creates files
 * 0600. Reads always go to disk (conf does not cache), so a caller holding the lock sees the
 * latest write of any process. A file that does not parse becomes a StoreError naming it.
 */
import Conf from 'conf';
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

/** A conf handle on `<dir>/<name>.json`; a corrupt file becomes a StoreError naming it. */
export function openJsonFile(dir: string, name: string): Conf<JsonObject> {
  const file = jsonFilePath(dir, name);
  const deserialize = (text: string): JsonObject => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // No cause: the parser's message quotes the text around the bad token, a key or secret here.
      throw new StoreError(file, `The store file ${file} is corrupt: it is not valid JSON`);
    }
    if (!isPlainObject(value)) throw new StoreError(file, `The store file ${file} is corrupt: expected a JSON object`);
    return value;
  };
  try {
    return new Conf<JsonObject>({
      cwd: dir,
      configName: name,
      configFileMode: PRIVATE_FILE_MODE, // conf creates every store file owner-only
      // Profile names may contain dots; they are keys, not paths.
      accessPropertiesByDotNotation: false,
      deserialize,
    });
  } catch (err) {
    throw asStoreError(err, file);
  }
}

/** The file's current content ({} when it does not exist). */
export function readJsonFile(conf: Conf<JsonObject>): JsonObject {
  try {
    return conf.store;
  } catch (err) {
    throw asStoreError(err, conf.path);
  }
}

/** Replaces the file's content atomically (temp file, then rename), 0600. */
export function writeJsonFile(conf: Conf<JsonObject>, value: JsonObject): void {
  try {
    conf.store = value;
  } catch (err) {
    throw asStoreError(err, conf.path, 'write');
  }
}

function asStoreError(err: unknown, file: string, action: 'read' | 'write' = 'read'): StoreError {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: string }).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code ?? (err as Error).message;
  return new StoreError(file, `Could not ${action} the store file ${file}: ${why}`, {
    cause: err,
    hint: code === 'EACCES' || code === 'EPERM' ? `Check the owner and permissions of ${file}.` : undefined,
  });
}
