/**
 * The store holds secrets (client secret, session private keys): its folder is 0700 and every file
 * 0600, also for files an older version or a user created with looser modes. Temp files left by a
 * crash mid-write may hold a private key too: they are created 0600 and removed once their writer is gone
 * (a lock's temp file here, a write's under the store lock: lock.ts removeAbandonedWrites).
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../process-alive.js';
import { StoreError } from './errors.js';

/** Owner-only folder. */
const DIR_MODE = 0o700;
/** Owner-only read/write file. */
export const PRIVATE_FILE_MODE = 0o600;
/**
 * Temp files named after the writing process: a lock's `<file>.lock.<pid>.tmp` (lock-file.ts), and
 * `<file>.<pid>.tmp` of an earlier svc's own writer. Abandoned once that process is gone.
 */
const PID_TEMP_FILE_RE = /\.(\d+)\.tmp$/;
/**
 * conf's writer (atomically) writes `<file>.tmp-<10 digits of Date.now()><6 hex>` and renames it into
 * place; the name says nothing of its writer. It cleans up on exit, so only a SIGKILL leaves one.
 */
const CONF_TEMP_FILE_RE = /\.tmp-\d{10}[0-9a-f]{6}$/;

/** Whether a pid-named temp file was left by a process that died mid-write. */
function abandonedPidTemp(name: string): boolean {
  const pid = PID_TEMP_FILE_RE.exec(name)?.[1];
  return pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid));
}
const POSIX = process.platform !== 'win32';

/**
 * Takes away every permission bit beyond `mode`, and adds none: 0644 becomes 0600, but a file the
 * user made 0400 (or a folder 0500) on purpose stays as strict as it is. True when it changed the mode.
 */
function chmodIfLoose(path: string, mode: number, current: number): boolean {
  const extra = current & 0o777 & ~mode;
  if (!POSIX || extra === 0) return false;
  try {
    chmodSync(path, current & mode & 0o777);
    return true;
  } catch (err) {
    // Not ours to change (e.g. a shared folder): reading still works, so do not block the user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    return false;
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Creates dir (and parents) 0700, or tightens it to 0700 when it exists looser, saying so in `notes`.
 * A folder that is (or links to) another user's is refused: whoever owns it can read the secrets.
 */
export function ensurePrivateDir(dir: string, notes: string[] = []): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    refuseForeign(dir);
    const st = statSync(dir);
    if (chmodIfLoose(dir, DIR_MODE, st.mode)) {
      notes.push(
        `${dir} was ${octal(st.mode)}; made it ${octal(st.mode & DIR_MODE)}, as it holds secrets only you may read`,
      );
    }
  } catch (err) {
    if (err instanceof StoreError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'permission denied'
        : code === 'ENOTDIR'
          ? 'a parent is not a folder'
          : (code ?? (err as Error).message);
    throw new StoreError(dir, `Could not create the store folder ${dir}: ${why}`, {
      cause: err,
      hint: 'Set SERVICE_CLI_CONFIG_DIR to a folder you can write (for example SERVICE_CLI_CONFIG_DIR=$PWD/.svc).',
    });
  }
}

function refuseForeign(dir: string): void {
  const uid = process.getuid?.();
  if (!POSIX || uid === undefined || uid === 0) return;
  const target = realpathSync(dir);
  const owner = statSync(target).uid;
  if (owner === uid) return;
  const link = lstatSync(dir).isSymbolicLink() ? ` (a symlink to ${target})` : '';
  throw new StoreError(
    dir,
    `The store folder ${dir}${link} belongs to another user (uid ${owner}): refusing to keep keys and secrets there`,
    {
      hint: 'Set SERVICE_CLI_CONFIG_DIR to a folder you own, or remove the link so a folder of your own is created.',
    },
  );
}

/**
 * chmod 0600 every file in dir; drop abandoned pid-named temp files. Not recursive. Tightened files
 * are named in `notes`. Returns conf's temp files: whether they are abandoned only the store lock can
 * tell (lock.ts removeAbandonedWrites).
 */
export function securePrivateFiles(dir: string, notes: string[] = []): string[] {
  const confTemps: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    try {
      if (abandonedPidTemp(entry.name)) {
        unlinkSync(path);
        continue;
      }
      if (CONF_TEMP_FILE_RE.test(entry.name)) confTemps.push(path);
      const st = statSync(path);
      if (chmodIfLoose(path, PRIVATE_FILE_MODE, st.mode))
        notes.push(`${path} was ${octal(st.mode)}; made it ${octal(st.mode & PRIVATE_FILE_MODE)}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // renamed or removed meanwhile
    }
  }
  return confTemps;
}
