/**
 * Writes are temp-file-then-rename, so a crash leaves the previous version readable; a file that is
 * corrupt anyway gives an error naming it instead of a stack trace.
 */
import { existsSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openStore, StoreError } from '../../../src/store/index.js';
import { spawnChild, waitFor } from './children.js';
import { sessionFixture } from './session-fixture.js';
import { useTempDirs } from './temp-dirs.js';
import { caught } from '../../helpers/caught.js';

const tempDir = useTempDirs('svc-store-');

const thrown = (fn: () => unknown) => caught(fn, StoreError);

describe('store durability', () => {
  it.runIf(process.platform !== 'win32')(
    'replaces config.json by rename (a new inode), never rewriting it in place',
    () => {
      const dir = tempDir();
      const store = openStore({ dir });
      store.setProfile('a', { baseUrl: 'http://127.0.0.1:1' });
      const before = statSync(join(dir, 'config.json')).ino;
      store.setProfile('b', { baseUrl: 'http://127.0.0.1:2' });
      expect(statSync(join(dir, 'config.json')).ino).not.toBe(before);
    },
  );

  it('ignores a half-written temp file left by a crash, and removes it at once unless a write holds the lock', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    store.setProfile('default', { baseUrl: 'http://127.0.0.1:4010' });
    store.saveSession(sessionFixture(1));
    // conf's temp names (atomically): `<file>.tmp-<10 digits of the time><6 hex>`, fresh ones.
    const strayConfig = join(dir, 'config.json.tmp-1234567890abcdef');
    const straySession = join(dir, 'sessions', 'Session_3a2.json.tmp-1234567890fedcba');
    writeFileSync(strayConfig, '{"profiles":{"default":{"baseUr');
    writeFileSync(straySession, '{"id":"Sess');

    // A live process (ours' parent) holds the store lock: its write may be one of these.
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, `${process.ppid}\n`);
    const reopened = openStore({ dir });
    expect(reopened.getProfile('default')).toEqual({ baseUrl: 'http://127.0.0.1:4010' });
    expect(reopened.listSessions().map((s) => s.id)).toEqual([sessionFixture(1).id]);
    expect([existsSync(strayConfig), existsSync(straySession)]).toEqual([true, true]);

    unlinkSync(lock); // no write under way: they were left by a writer killed mid-write
    openStore({ dir });
    expect([existsSync(strayConfig), existsSync(straySession)]).toEqual([false, false]);
    expect(existsSync(lock)).toBe(false);
  });

  it('stays readable and writable after a process is killed mid-write (stale lock taken over)', async () => {
    const dir = tempDir();
    const child = spawnChild(dir, 'churn', 0);
    await waitFor(child, 'ready');
    child.proc.stdin!.end('go\n');
    await new Promise((r) => setTimeout(r, 400));
    child.proc.kill('SIGKILL');
    await child.exited;

    const store = openStore({ dir });
    expect(Object.keys(store.listProfiles()).length).toBeGreaterThan(0);
    expect(store.listSessions().length).toBeGreaterThan(0);
    store.setProfile('after-crash', { baseUrl: 'http://127.0.0.1:9' }); // must not wait on the dead writer's lock
    expect(store.getProfile('after-crash')).toEqual({ baseUrl: 'http://127.0.0.1:9' });
    expect(readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('names a corrupt config.json in a StoreError, without blocking session access', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    store.saveSession(sessionFixture(1));
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"default": ');
    const err = thrown(() => store.listProfiles());
    expect(err.message).toContain(join(dir, 'config.json'));
    expect(err.message).toContain('corrupt');
    expect(err.hint).toContain('delete');
    expect(openStore({ dir }).getSession(sessionFixture(1).id)?.id).toBe(sessionFixture(1).id);
  });

  it('rejects config.json that is JSON but not the expected shape', () => {
    for (const text of ['[]', '42', '{"profiles": 5}']) {
      const dir = tempDir();
      writeFileSync(join(dir, 'config.json'), text);
      expect(thrown(() => openStore({ dir }).currentProfileName()).file, text).toBe(join(dir, 'config.json'));
    }
  });

  it('names a corrupt session file', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    const file = join(dir, 'sessions', 'Session_3a7.json');
    writeFileSync(file, 'not json');
    expect(thrown(() => store.getSession('Session:7')).message).toContain(file);
    // Listing leaves it out (the other keys stay usable) and damagedSessions names it.
    expect(store.listSessions()).toEqual([]);
    expect(store.damagedSessions()).toEqual([{ file, problem: expect.stringContaining(file) }]);
    writeFileSync(file, '{"id":"Session:7"}');
    expect(thrown(() => store.getSession('Session:7')).message).toContain('privateKey');
  });

  it("keeps a corrupt key file's text out of the error, its cause included (what a logger would print)", () => {
    const dir = tempDir();
    const store = openStore({ dir });
    const key = 'c0ffee'.repeat(10) + 'abcd';
    writeFileSync(join(dir, 'sessions', 'Session_3a7.json'), `{"id":"Session:7","privateKey": ${key}}`);
    const err = thrown(() => store.getSession('Session:7'));
    expect(err.message).toContain('not valid JSON');
    expect(inspect(err)).not.toContain(key.slice(0, 8));
  });

  it('names a session file whose key was cut short, without echoing what is left of it', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    const session = sessionFixture(7);
    store.saveSession(session);
    const file = join(dir, 'sessions', 'Session_3a00000000-0000-4000-8000-000000000007.json');
    const truncated = session.privateKey.slice(0, 40);
    writeFileSync(file, JSON.stringify({ ...session, privateKey: truncated }));
    const err = thrown(() => store.getSession(session.id));
    expect(err.message).toContain(file);
    expect(err.message).toContain('"privateKey" is not a P-256 key');
    expect(`${err.message} ${err.hint}`).not.toContain(truncated);
    writeFileSync(file, JSON.stringify({ ...session, publicKey: '02abc' }));
    expect(store.listSessions()).toEqual([]);
    expect(store.damagedSessions()[0]!.problem).toContain('"publicKey"');
  });
});
