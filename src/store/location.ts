/**
 * Where the store lives: SERVICE_CLI_CONFIG_DIR, else the default folder of the platform; and the
 * one-time move of a store from where earlier versions kept it.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/** conf's project name: the folder under the OS config directory. */
export const PROJECT_NAME = 'service-cli';
export const CONFIG_NAME = 'config';
export const SESSIONS_DIR = 'sessions';

/** The user's home folder from the OS, for where HOME is not set: node:os loads only then. */
const homedir = (): string => process.getBuiltinModule('node:os').homedir();

/**
 * The default store folder, as gh and the Stripe CLI place theirs: $XDG_CONFIG_HOME/service-cli when
 * set, else ~/.config/service-cli on macOS and Linux, %APPDATA%\service-cli on Windows. Computed here
 * and handed to conf (which would otherwise pick ~/Library/Preferences on macOS): conf touches the
 * file system as it starts, and a home it cannot use (read-only, not a folder) must become the
 * store's own error naming SERVICE_CLI_CONFIG_DIR, not a bare EACCES.
 */
export function defaultConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = (platform !== 'win32' && nonEmpty(env.HOME)) || homedir();
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (xdg !== undefined) return join(xdg, PROJECT_NAME);
  if (platform === 'win32') return join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), PROJECT_NAME);
  return join(home, '.config', PROJECT_NAME);
}

/** Where earlier versions kept the default store (conf's own choice): moved once to the new place. */
export function legacyConfigDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const home = (platform !== 'win32' && nonEmpty(env.HOME)) || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', PROJECT_NAME);
  if (platform === 'win32')
    return join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), PROJECT_NAME, 'Config');
  return undefined;
}

/**
 * Moves a store from where an earlier version kept it into `dir`, once: only when `dir` holds no
 * store yet, entry by entry (on Windows the old folder is inside the new one), then removes the
 * emptied old folder. Says so in `notes`. A move that fails leaves both in place and says why.
 */
export function moveLegacyStore(from: string | undefined, dir: string, notes: string[]): void {
  if (from === undefined || !existsSync(from) || existsSync(join(dir, `${CONFIG_NAME}.json`))) return;
  if (existsSync(join(dir, SESSIONS_DIR)) && readdirSync(join(dir, SESSIONS_DIR)).length > 0) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const entry of readdirSync(from)) {
      if (entry === SESSIONS_DIR && existsSync(join(dir, SESSIONS_DIR))) rmdirSync(join(dir, SESSIONS_DIR));
      renameSync(join(from, entry), join(dir, entry));
    }
    rmdirSync(from);
    notes.push(`moved the store from ${from} to ${dir}, where it is kept now (as gh and the Stripe CLI do)`);
  } catch (error) {
    notes.push(
      `could not move the store from ${from} to ${dir} (${(error as Error).message}); move it yourself, or set SERVICE_CLI_CONFIG_DIR=${from}`,
    );
  }
}

export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}
