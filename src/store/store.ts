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
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StoreError } from './errors.js';
import { type JsonFile, jsonFile } from './json-file.js';
import { CONFIG_NAME, SESSIONS_DIR, defaultConfigDir, legacyConfigDir, moveLegacyStore, nonEmpty } from './location.js';
import { removeAbandonedWrites, withStoreLock } from './lock.js';
import { sessionFileName, validateProfileName } from './names.js';
import { ensurePrivateDir, securePrivateFiles } from './permissions.js';
import { type ConfigData, mergeProfile, toConfigData, toSession } from './shapes.js';
import type { Store, StoredSession } from './types.js';

export { PROJECT_NAME } from './location.js';
const DEFAULT_PROFILE = 'default';

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

  // One conf file each: config.json, and each session file as it is first used.
  const config = jsonFile(dir, CONFIG_NAME);
  const configFile = config.path;
  const sessionFiles = new Map<string, JsonFile>();
  const sessionFile = (name: string): JsonFile => {
    let file = sessionFiles.get(name);
    if (file === undefined) sessionFiles.set(name, (file = jsonFile(sessionsDir, name)));
    return file;
  };
  // Read on use, so a broken config.json does not stop commands that never read it.
  const readConfig = () => toConfigData(config.read(), configFile);
  const updateConfig = (change: (data: ConfigData) => void) =>
    withStoreLock(dir, () => {
      const raw = config.read(); // fresh from disk, inside the lock
      const data = toConfigData(raw, configFile);
      change(data);
      config.write({ ...raw, currentProfile: data.currentProfile, profiles: data.profiles });
    });

  const readSessionFile = (name: string): StoredSession | undefined => {
    const file = sessionFile(name);
    const raw = file.read();
    // A missing file reads as {}: the session was deleted between listing and reading.
    if (Object.keys(raw).length === 0) return undefined;
    return toSession(raw, file.path);
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
      if (!existsSync(sessionFile(name).path)) return undefined;
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
      const file = sessionFile(sessionFileName(s.id));
      withStoreLock(dir, () => file.write({ ...s }));
    },
    deleteSession(id) {
      sessionFile(sessionFileName(id)).delete();
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
