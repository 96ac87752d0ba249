/**
 * One JSON object per file, kept by conf: one Conf instance a file, read with `conf.store` and
 * written with `conf.store = value` (the whole object, so a key the caller dropped is gone from the
 * file). conf writes through atomically: a temp file, fsynced, renamed over the old one, so a crash
 * mid-write leaves the previous version intact; every file it creates is 0600. conf reads the file
 * on every `conf.store`, never from a copy in memory, so a caller holding the store lock sees the
 * latest write of any process. A file that does not parse becomes a StoreError naming it.
 */
import Conf from 'conf';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { PRIVATE_FILE_MODE } from './permissions.js';

/** The content of one store file: always a JSON object. */
export type JsonObject = Record<string, unknown>;

/** One store file: `<dir>/<name>.json`. */
export interface JsonFile {
  readonly path: string;
  /** Its current content, {} when it does not exist. */
  read(): JsonObject;
  /** Replaces its content atomically. Callers hold the store lock (lock.ts withStoreLock). */
  write(value: JsonObject): void;
  /** Deletes it; one already gone is not an error. */
  delete(): void;
}

function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `<dir>/<name>.json`: where conf keeps the file named `name`. */
function jsonFilePath(dir: string, name: string): string {
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

/**
 * The store file `<dir>/<name>.json`. Its Conf instance is made on first use: making one reads the
 * file, so a damaged file stops only the commands that use it.
 */
export function jsonFile(dir: string, name: string): JsonFile {
  const file = jsonFilePath(dir, name);
  let instance: Conf<JsonObject> | undefined;
  const conf = () =>
    (instance ??= new Conf<JsonObject>({
      cwd: dir,
      configName: name,
      configFileMode: PRIVATE_FILE_MODE, // conf creates every store file owner-only
      // Profile names may contain dots; they are keys, not paths.
      accessPropertiesByDotNotation: false,
      deserialize: (text) => parseJsonObject(text, file),
    }));
  return {
    path: file,
    read() {
      try {
        // conf hands out a null-prototype copy; callers get a plain object.
        return { ...conf().store };
      } catch (err) {
        throw asStoreError(err, file);
      }
    },
    write(value) {
      try {
        conf().store = value;
      } catch (err) {
        throw asStoreError(err, file, 'write');
      }
    },
    delete() {
      try {
        unlinkSync(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT')
          throw new StoreError(file, `Could not delete ${file}: ${code ?? (err as Error).message}`, { cause: err });
      }
    },
  };
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
