/**
 * The local store: `config.json` (profiles and `currentProfile`) and one file per session under
 * `sessions/`. Concurrency, because several processes of this CLI may run at once:
 * - sessions: each session is its own file, written atomically, so eight processes saving eight
 *   sessions at the same instant never touch the same file and none is lost;
 * - config.json: every change is read-modify-write under an O_EXCL lock file, re-reading the file
 *   inside the lock, so concurrent `setProfile` calls all land;
 * - every write (session files too) holds that lock, so a temp file found while holding it was left
 *   by a killed writer and is removed as the store opens (lock.ts).
 * Private keys live only in session files (0600, folder 0700).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { StoreError } from './errors.js';
import { deleteJsonFile, jsonFilePath, readJsonFile, writeJsonFile, type JsonObject } from './json-file.js';
import { removeAbandonedWrites, withStoreLock } from './lock.js';
import { sessionFileName, validateProfileName } from './names.js';
import { ensurePrivateDir, securePrivateFiles } from './permissions.js';
import type { Profile, Store, StoredSession } from './types.js';

/** conf's project name: the folder under the OS config directory. */
export const PROJECT_NAME = 'service-cli';
const DEFAULT_PROFILE = 'default';
const CONFIG_NAME = 'config';
const SESSIONS_DIR = 'sessions';

/**
 * The default store folder, as gh and the Stripe CLI place theirs: $XDG_CONFIG_HOME/service-cli when
 * set, else ~/.config/service-cli on macOS and Linux, %APPDATA%\service-cli on Windows. Computed here
 * and handed to conf (which would otherwise pick ~/Library/Preferences on macOS): conf touches the
 * file system as it starts, and a home it cannot use (read-only, not a folder) must become the
 * store's own error naming SERVICE_CLI_CONFIG_DIR, not a bare EACCES.
 */
function defaultConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = (platform !== 'win32' && nonEmpty(env.HOME)) || homedir();
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (xdg !== undefined) return join(xdg, PROJECT_NAME);
  if (platform === 'win32') return join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), PROJECT_NAME);
  return join(home, '.config', PROJECT_NAME);
}

/** Where earlier versions kept the default store (conf's own choice): moved once to the new place. */
function legacyConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
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
function moveLegacyStore(from: string | undefined, dir: string, notes: string[]): void {
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

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** The fields that map a base URL to a signer key. */
const PIN_MAPS = new Set(['otpSigners', 'sandboxOtpSigners']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const STRING_FIELDS = new Set([
  'baseUrl',
  'apiTokenId',
  'apiClientSecret',
  'accessToken',
  'otpSignerPublicKey',
  'webhookPublicKey',
  'activeSessionId',
  'credentialId',
]);

/** Every value of the wrong type in the profiles, as `profiles.<name>.<field>` paths (a hand edit, usually). */
function wrongTypes(profiles: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) {
      wrong.push(`profiles.${name} (must be an object)`);
      continue;
    }
    for (const [field, value] of Object.entries(profile)) {
      // Fields this version does not know are left alone: a newer version may have written them.
      if (!PIN_MAPS.has(field) && !STRING_FIELDS.has(field)) continue;
      const ok = PIN_MAPS.has(field)
        ? isObject(value) && Object.values(value).every((v) => typeof v === 'string')
        : typeof value === 'string';
      if (!ok)
        wrong.push(`profiles.${name}.${field} (must be ${PIN_MAPS.has(field) ? 'an object of strings' : 'a string'})`);
    }
  }
  return wrong;
}

function toConfigData(raw: JsonObject, file: string): ConfigData {
  const profiles = raw.profiles ?? {};
  if (!isObject(profiles)) {
    throw new StoreError(file, `The store file ${file} is corrupt: "profiles" must be an object`);
  }
  const wrong = wrongTypes(profiles);
  if (wrong.length > 0) {
    throw new StoreError(file, `The store file ${file} has values of the wrong type: ${wrong.join(', ')}`, {
      hint: `Fix those values in ${file} (or delete the file); the config commands write them with the right type.`,
    });
  }
  const current = typeof raw.currentProfile === 'string' ? raw.currentProfile : undefined;
  return { currentProfile: current, profiles: profiles as Record<string, Profile> };
}

// Shapes only, by regex: the store must not load the curve library (startup cost on every command).
// A key that is cut short or edited by hand is caught here, naming the file, instead of surfacing
// later as a usage error about a private key option the user never passed.
const SESSION_KEY_SHAPES = {
  privateKey: /^[0-9a-fA-F]{64}$/,
  publicKey: /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/,
};

function toSession(raw: JsonObject, file: string): StoredSession {
  for (const field of ['id', 'privateKey', 'publicKey', 'profile'] as const) {
    if (typeof raw[field] !== 'string') {
      throw new StoreError(file, `The session file ${file} is corrupt: "${field}" is missing`);
    }
  }
  for (const [field, shape] of Object.entries(SESSION_KEY_SHAPES)) {
    if (!shape.test(raw[field] as string)) {
      throw new StoreError(file, `The session file ${file} is corrupt: "${field}" is not a P-256 key in hex`);
    }
  }
  return raw as unknown as StoredSession;
}

/** patch merged over base; a key patched to undefined is removed. */
function mergeProfile(base: Profile | undefined, patch: Partial<Profile>): Profile {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged as Profile;
}

/**
 * Opens the store in `opts.dir`, else SERVICE_CLI_CONFIG_DIR, else the default folder (moving an old one there), creating
 * it 0700 and tightening any looser folder or file it finds. Reads always go to disk, so several
 * processes can share one store.
 */
export function openStore(opts: { dir?: string; env?: NodeJS.ProcessEnv } = {}): Store {
  const env = opts.env ?? process.env;
  const chosen = opts.dir ?? nonEmpty(env.SERVICE_CLI_CONFIG_DIR);
  const dir = resolve(chosen ?? defaultConfigDir(env));
  const sessionsDir = join(dir, SESSIONS_DIR);
  const notes: string[] = [];
  if (chosen === undefined) moveLegacyStore(legacyConfigDir(env), dir, notes);
  ensurePrivateDir(dir, notes);
  ensurePrivateDir(sessionsDir, notes);
  removeAbandonedWrites(dir, [...securePrivateFiles(dir, notes), ...securePrivateFiles(sessionsDir, notes)]);

  const configFile = jsonFilePath(dir, CONFIG_NAME);
  // Read on use, so a broken config.json does not stop commands that never read it.
  const readConfig = () => toConfigData(readJsonFile(dir, CONFIG_NAME), configFile);
  const updateConfig = (change: (data: ConfigData) => void) =>
    withStoreLock(dir, () => {
      const raw = readJsonFile(dir, CONFIG_NAME); // fresh from disk, inside the lock
      const data = toConfigData(raw, configFile);
      change(data);
      writeJsonFile(dir, CONFIG_NAME, { ...raw, currentProfile: data.currentProfile, profiles: data.profiles });
    });

  const readSessionFile = (name: string): StoredSession | undefined => {
    const raw = readJsonFile(sessionsDir, name);
    // A missing file reads as {}: the session was deleted between listing and reading.
    if (Object.keys(raw).length === 0) return undefined;
    return toSession(raw, jsonFilePath(sessionsDir, name));
  };

  return {
    dir,
    notes,
    currentProfileName: () => readConfig().currentProfile ?? DEFAULT_PROFILE,
    setCurrentProfile(name) {
      validateProfileName(name);
      updateConfig((data) => {
        data.currentProfile = name;
      });
    },
    getProfile(name) {
      const { profiles } = readConfig();
      return Object.hasOwn(profiles, name) ? { ...profiles[name] } : undefined;
    },
    listProfiles: () => ({ ...readConfig().profiles }),
    setProfile(name, patch) {
      validateProfileName(name);
      updateConfig((data) => {
        const current = Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
        data.profiles = { ...data.profiles, [name]: mergeProfile(current, patch) };
      });
    },
    deleteProfile(name) {
      let existed = false;
      updateConfig((data) => {
        existed = Object.hasOwn(data.profiles, name);
        const { [name]: _gone, ...rest } = data.profiles;
        data.profiles = rest;
        if (data.currentProfile === name) data.currentProfile = undefined;
      });
      // Keys after the profile: a crash in between leaves keys nobody points at (session prune
      // removes them), never a profile pointing at a deleted key.
      for (const s of this.listSessions(name)) this.deleteSession(s.id);
      return existed;
    },
    renameProfile(from, to) {
      validateProfileName(to, '<new>');
      updateConfig((data) => {
        if (!Object.hasOwn(data.profiles, from))
          throw new StoreError(configFile, `No profile named "${from}"`, {
            hint: 'List the profiles to see their names.',
          });
        if (Object.hasOwn(data.profiles, to))
          throw new StoreError(configFile, `A profile named "${to}" already exists`, {
            hint: `Delete profile "${to}" first, or pick another name.`,
          });
        const { [from]: moved, ...rest } = data.profiles;
        data.profiles = { ...rest, [to]: moved! };
        if (data.currentProfile === from) data.currentProfile = to;
      });
      for (const s of this.listSessions(from)) this.saveSession({ ...s, profile: to });
    },
    getSession(id) {
      const name = sessionFileName(id);
      if (!existsSync(jsonFilePath(sessionsDir, name))) return undefined;
      return readSessionFile(name);
    },
    listSessions(profile) {
      const sessions: StoredSession[] = [];
      // Only *.json: in-flight temp files (conf's .tmp-…) must not be read half-written.
      for (const entry of readdirSync(sessionsDir)) {
        if (!entry.endsWith('.json')) continue;
        let s: StoredSession | undefined;
        try {
          s = readSessionFile(entry.slice(0, -'.json'.length));
        } catch (error) {
          // One damaged key file must not hide the others: damagedSessions() names it.
          if (error instanceof StoreError) continue;
          throw error;
        }
        if (s && (profile === undefined || s.profile === profile)) sessions.push(s);
      }
      return sessions.sort(
        (a, b) => String(a.createdAt).localeCompare(String(b.createdAt)) || a.id.localeCompare(b.id),
      );
    },
    damagedSessions() {
      const damaged: Array<{ file: string; problem: string }> = [];
      for (const entry of readdirSync(sessionsDir)) {
        if (!entry.endsWith('.json')) continue;
        try {
          readSessionFile(entry.slice(0, -'.json'.length));
        } catch (error) {
          if (error instanceof StoreError) damaged.push({ file: error.file, problem: error.message });
          else throw error;
        }
      }
      return damaged;
    },
    saveSession(s) {
      withStoreLock(dir, () => writeJsonFile(sessionsDir, sessionFileName(s.id), { ...s }));
    },
    deleteSession(id) {
      deleteJsonFile(sessionsDir, sessionFileName(id));
      // A profile must not point at a key we no longer hold; only lock when one does.
      const pointing = Object.entries(readConfig().profiles).some(([, p]) => p.activeSessionId === id);
      if (!pointing) return;
      updateConfig((data) => {
        for (const [name, p] of Object.entries(data.profiles)) {
          if (p.activeSessionId === id) data.profiles[name] = mergeProfile(p, { activeSessionId: undefined });
        }
      });
    },
  };
}
