import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { UsageError } from '../../../src/errors.js';
import { sessionFixture } from './session-fixture.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs('svc-store-');

describe('openStore', () => {
  it('uses opts.dir, then SERVICE_CLI_CONFIG_DIR', () => {
    const a = tempDir();
    const b = tempDir();
    expect(openStore({ dir: a, env: { SERVICE_CLI_CONFIG_DIR: b } }).dir).toBe(a);
    expect(openStore({ env: { SERVICE_CLI_CONFIG_DIR: b } }).dir).toBe(b);
  });

  it('falls back to $XDG_CONFIG_HOME/service-cli, from the environment it is given', () => {
    const xdg = tempDir();
    expect(openStore({ env: { XDG_CONFIG_HOME: xdg } }).dir).toBe(join(xdg, 'service-cli'));
  });

  it('has profile "default" current until told otherwise', () => {
    const store = openStore({ dir: tempDir() });
    expect(store.currentProfileName()).toBe('default');
    store.setCurrentProfile('staging');
    expect(openStore({ dir: store.dir }).currentProfileName()).toBe('staging');
  });

  it('merges profile patches, removes keys patched to undefined, and accepts dotted names', () => {
    const store = openStore({ dir: tempDir() });
    store.setProfile('team.dev', { baseUrl: 'http://127.0.0.1:4010', apiTokenId: 't' });
    store.setProfile('team.dev', { apiClientSecret: 's', activeSessionId: 'Session:1' });
    store.setProfile('team.dev', { activeSessionId: undefined });
    expect(store.getProfile('team.dev')).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      apiTokenId: 't',
      apiClientSecret: 's',
    });
    expect(store.getProfile('nope')).toBeUndefined();
    expect(store.getProfile('__proto__')).toBeUndefined();
    expect(Object.keys(store.listProfiles())).toEqual(['team.dev']);
  });

  it('refuses profile names that could not be keys or file-safe', () => {
    const store = openStore({ dir: tempDir() });
    for (const name of ['', '__proto__', '../x', 'a b', '-x']) {
      expect(() => store.setProfile(name, {})).toThrow(UsageError);
    }
  });

  it('saves, reads, lists by profile and deletes sessions, keeping private keys out of config.json', () => {
    const store = openStore({ dir: tempDir() });
    store.saveSession(sessionFixture(2, { profile: 'other' }));
    store.saveSession(sessionFixture(1));
    store.saveSession(sessionFixture(3, { credentialId: 'cred' }));
    store.setProfile('default', { activeSessionId: sessionFixture(3).id });
    expect(store.getSession(sessionFixture(3).id)).toEqual(sessionFixture(3, { credentialId: 'cred' }));
    expect(store.listSessions().map((s) => s.id)).toEqual([1, 2, 3].map((n) => sessionFixture(n).id));
    expect(store.listSessions('default').map((s) => s.id)).toEqual([1, 3].map((n) => sessionFixture(n).id));
    expect(readFileSync(join(store.dir, 'config.json'), 'utf8')).not.toContain('ab'.repeat(32));

    store.deleteSession(sessionFixture(3).id);
    store.deleteSession(sessionFixture(3).id); // twice is fine
    expect(store.getSession(sessionFixture(3).id)).toBeUndefined();
    expect(store.getProfile('default')?.activeSessionId).toBeUndefined(); // no pointer to a key we dropped
    expect(readdirSync(join(store.dir, 'sessions')).sort()).toEqual(
      [1, 2].map((n) => `Session_3a00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}.json`),
    );
  });

  it('maps awkward session ids to distinct safe files', () => {
    const store = openStore({ dir: tempDir() });
    for (const id of ['Session:a', 'Session_3aa', '../../etc', 'a/b', 'Session:ü'])
      store.saveSession(sessionFixture(1, { id }));
    expect(
      store
        .listSessions()
        .map((s) => s.id)
        .sort(),
    ).toEqual(['../../etc', 'Session:a', 'Session:ü', 'Session_3aa', 'a/b']);
    expect(readdirSync(join(store.dir, 'sessions')).every((f) => /^[A-Za-z0-9_-]+\.json$/.test(f))).toBe(true);
  });
});
