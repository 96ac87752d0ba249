/**
 * The local store: `config.json` (profiles and `currentProfile`) and one file per session under
 * `sessions/`. Concurrency, because several svc processes may run at once:
 * - sessions: each session is its own file, written atomically, so eight processes saving eight
 *   sessions at the same instant never touch the same file and none is lost;
 * - config.json: every change is read-modify-write under an O_EXCL lock file, re-reading the file
 *   inside the lock, so concurrent `setProfile` calls all land.
 * Private keys live only in session files (0600, folder 0700).
 */
import Conf from 'conf';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { StoreError } from './errors.js';
import { deleteJsonFile, jsonFilePath, readJsonFile, writeJsonFile, type JsonObject } from './json-file.js';
import { withFileLock } from './lock.js';
import { sessionFileName, validateProfileName } from './names.js';
import { ensurePrivateDir, securePrivateFiles } from './permissions.js';
import type { Profile, Store, StoredSession } from './types.js';

/** conf's project name: the folder under the OS config directory. */
export const PROJECT_NAME = 'service-cli';
const DEFAULT_PROFILE = 'default';
const CONFIG_NAME = 'config';
const SESSIONS_DIR = 'sessions';

/** conf's own default location for our project name (env-paths: XDG on Linux, Preferences on macOS, AppData on Windows). */
function defaultConfigDir(): string {
  // Constructing conf computes the path; the stand-in parser keeps a broken file from failing here.
  const probe = new Conf({ projectName: PROJECT_NAME, projectSuffix: '', deserialize: () => ({}) });
  return dirname(probe.path);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

interface ConfigData { currentProfile?: string; profiles: Record<string, Profile> }

function toConfigData(raw: JsonObject, file: string): ConfigData {
  const profiles = raw.profiles ?? {};
  if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) {
    throw new StoreError(file, `The store file ${file} is corrupt: "profiles" must be an object`);
  }
  const current = typeof raw.currentProfile === 'string' ? raw.currentProfile : undefined;
  return { currentProfile: current, profiles: profiles as Record<string, Profile> };
}

// Shapes only, by regex: the store must not load the curve library (startup cost on every command).
// A key that is cut short or edited by hand is caught here, naming the file, instead of surfacing
// later as a usage error about a --private-key flag the user never passed.
const SESSION_KEY_SHAPES = { privateKey: /^[0-9a-fA-F]{64}$/, publicKey: /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/ };

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
 * Opens the store in `opts.dir`, else SERVICE_CLI_CONFIG_DIR, else the OS config folder (conf), creating
 * it 0700 and tightening any looser folder or file it finds. Reads always go to disk, so several
 * processes can share one store.
 */
export function openStore(opts: { dir?: string; env?: NodeJS.ProcessEnv } = {}): Store {
  const env = opts.env ?? process.env;
  const dir = resolve(opts.dir ?? nonEmpty(env.SERVICE_CLI_CONFIG_DIR) ?? defaultConfigDir());
  const sessionsDir = join(dir, SESSIONS_DIR);
  ensurePrivateDir(dir);
  ensurePrivateDir(sessionsDir);
  securePrivateFiles(dir);
  securePrivateFiles(sessionsDir);

  const configFile = jsonFilePath(dir, CONFIG_NAME);
  const lockFile = `${configFile}.lock`;
  // Read on use, so a broken config.json does not stop commands that never read it.
  const readConfig = () => toConfigData(readJsonFile(dir, CONFIG_NAME), configFile);
  const updateConfig = (change: (data: ConfigData) => void) =>
    withFileLock(lockFile, () => {
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
    getSession(id) {
      const name = sessionFileName(id);
      if (!existsSync(jsonFilePath(sessionsDir, name))) return undefined;
      return readSessionFile(name);
    },
    listSessions(profile) {
      const sessions: StoredSession[] = [];
      // Only *.json: conf's in-flight temp files end in .tmp-…, and must not be read half-written.
      for (const entry of readdirSync(sessionsDir)) {
        if (!entry.endsWith('.json')) continue;
        const s = readSessionFile(entry.slice(0, -'.json'.length));
        if (s && (profile === undefined || s.profile === profile)) sessions.push(s);
      }
      return sessions.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)) || a.id.localeCompare(b.id));
    },
    saveSession(s) {
      writeJsonFile(sessionsDir, sessionFileName(s.id), { ...s });
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
