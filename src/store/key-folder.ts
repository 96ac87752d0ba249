/**
 * Keys kept beside the session keys, one 0600 file each in a folder of the store (0700): the
 * software passkeys (`passkeys/`) and the client key an OAuth login waits with between printing
 * its nonce and receiving the token (`pending-oauth/`). Same file rules as sessions: atomic writes
 * under the store lock, one file per key so concurrent processes never lose each other's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { type JsonFile, type JsonObject, jsonFile } from './json-file.js';
import { sessionFileName } from './names.js';
import { removeAbandonedWrites, withStoreLock } from './lock.js';
import { ensurePrivateDir, securePrivateFiles } from './permissions.js';

export interface KeyFolder<T extends { id: string }> {
  get(id: string): T | undefined;
  list(): T[];
  save(record: T): void;
  delete(id: string): void;
}

/** A folder of records keyed by `id`; `check` refuses a file that is not one (naming it). */
export function keyFolder<T extends { id: string }>(
  storeDir: string,
  name: string,
  check: (raw: JsonObject, file: string) => T,
): KeyFolder<T> {
  const dir = join(storeDir, name);
  ensurePrivateDir(dir);
  removeAbandonedWrites(storeDir, securePrivateFiles(dir));
  // One conf file a record, made as it is first used.
  const files = new Map<string, JsonFile>();
  const fileOf = (name: string): JsonFile => {
    let file = files.get(name);
    if (file === undefined) files.set(name, (file = jsonFile(dir, name)));
    return file;
  };
  const read = (name: string): T | undefined => {
    const file = fileOf(name);
    const raw = file.read();
    return Object.keys(raw).length === 0 ? undefined : check(raw, file.path);
  };
  return {
    get: (id) => (existsSync(fileOf(sessionFileName(id)).path) ? read(sessionFileName(id)) : undefined),
    list: () =>
      readdirSync(dir)
        .filter((entry) => entry.endsWith('.json'))
        .map((entry) => read(entry.slice(0, -'.json'.length)))
        .filter((r): r is T => r !== undefined),
    save: (record) => {
      const file = fileOf(sessionFileName(record.id));
      withStoreLock(storeDir, () => file.write({ ...record }));
    },
    delete: (id) => fileOf(sessionFileName(id)).delete(),
  };
}

/** Throws a StoreError unless every field is a string matching its shape. */
export function requireFields(raw: JsonObject, file: string, shapes: Record<string, RegExp>): void {
  for (const [field, shape] of Object.entries(shapes)) {
    if (typeof raw[field] !== 'string' || !shape.test(raw[field] as string)) {
      throw new StoreError(file, `The key file ${file} is corrupt: "${field}" is missing or malformed`);
    }
  }
}
