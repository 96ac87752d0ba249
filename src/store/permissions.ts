/**
 * The store holds secrets (client secret, session private keys): its folder is 0700 and every file
 * 0600, also for files an older version or a user created with looser modes. Temp files left by a
 * crash mid-write may hold a private key too: they get 0600 and are removed once clearly abandoned.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';

/** Owner-only folder. */
const DIR_MODE = 0o700;
/** Owner-only read/write file. */
export const PRIVATE_FILE_MODE = 0o600;
/** conf (via atomically) writes `<file>.tmp-<10 digits><6 hex>` and renames it over <file>. */
const TEMP_FILE_RE = /\.tmp-\d{10}[0-9a-f]{6}$/;
/** Older than this, a temp file belongs to no running write. */
const ABANDONED_TEMP_MS = 60_000;
const POSIX = process.platform !== 'win32';

/**
 * Takes away every permission bit beyond `mode`, and adds none: 0644 becomes 0600, but a file the
 * user made 0400 (or a folder 0500) on purpose stays as strict as it is.
 */
function chmodIfLoose(path: string, mode: number, current: number): void {
  const extra = current & 0o777 & ~mode;
  if (!POSIX || extra === 0) return;
  try {
    chmodSync(path, current & mode & 0o777);
  } catch (err) {
    // Not ours to change (e.g. a shared folder): reading still works, so do not block the user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Creates dir (and parents) 0700, or takes away what it allows beyond 0700 when it exists. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    chmodIfLoose(dir, DIR_MODE, statSync(dir).mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : code === 'ENOTDIR' ? 'a parent is not a folder' : code ?? (err as Error).message;
    throw new StoreError(dir, `Could not create the store folder ${dir}: ${why}`, {
      cause: err,
      hint: 'Set SERVICE_CLI_CONFIG_DIR to a folder you can write (for example SERVICE_CLI_CONFIG_DIR=$PWD/.svc).',
    });
  }
}

/** chmod 0600 every file in dir; drop abandoned temp files. Not recursive. */
export function securePrivateFiles(dir: string): void {
  const now = Date.now();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    try {
      const st = statSync(path);
      if (TEMP_FILE_RE.test(entry.name) && now - st.mtimeMs > ABANDONED_TEMP_MS) {
        unlinkSync(path);
        continue;
      }
      chmodIfLoose(path, PRIVATE_FILE_MODE, st.mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // renamed or removed meanwhile
    }
  }
}
