/** A lock left behind by a crashed process must not block the store for long. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../../src/store/lock.js';
import { openStore } from '../../../src/store/index.js';
import { keyFolder } from '../../../src/store/key-folder.js';
import { sessionFixture } from './session-fixture.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs('svc-lock-');

describe('withFileLock', () => {
  it('runs the critical section and removes the lock, also when it throws', () => {
    const lock = join(tempDir(), 'x.lock');
    expect(withFileLock(lock, () => existsSync(lock))).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(() =>
      withFileLock(lock, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose owner process is gone', () => {
    const dir = tempDir();
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'config.json.lock'), String(deadPid));
    const started = Date.now();
    openStore({ dir }).setProfile('default', { baseUrl: 'http://127.0.0.1:1' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(openStore({ dir }).getProfile('default')).toEqual({ baseUrl: 'http://127.0.0.1:1' });
  });

  it('takes over a lock that is older than any real write, even if its pid is alive', () => {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, '1');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    openStore({ dir }).setCurrentProfile('x');
    expect(openStore({ dir }).currentProfileName()).toBe('x');
  });

  it('takes over an empty lock: its owner was killed between creating it and writing its pid', () => {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(lock, '');
    const aWhileAgo = new Date(Date.now() - 5_000);
    utimesSync(lock, aWhileAgo, aWhileAgo);
    const started = Date.now();
    openStore({ dir }).setCurrentProfile('after-crash');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(openStore({ dir }).currentProfileName()).toBe('after-crash');
  });

  it('every write of a store file waits for the store lock (so a temp file found under it is abandoned)', async () => {
    const dir = tempDir();
    const store = openStore({ dir });
    const passkeys = keyFolder(dir, 'passkeys', (raw) => raw as { id: string });
    const writes = [
      {
        file: 'sessions/Session_3a00000000-0000-4000-8000-000000000001.json',
        write: () => store.saveSession(sessionFixture(1)),
      },
      { file: 'passkeys/Passkey_3a1.json', write: () => passkeys.save({ id: 'Passkey:1' }) },
    ];
    for (const { file, write } of writes) {
      // Another process holds the lock; once it sees our attempt at it (our pid-named lock temp
      // file), it says whether the write had already happened, and lets go.
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('node:fs'), [dir, writer] = process.argv.slice(1);
           fs.writeFileSync(dir + '/config.json.lock', process.pid + '\\n');
           const watcher = fs.watch(dir, (_, name) => {
             if (name !== 'config.json.lock.' + writer + '.tmp') return;
             watcher.close();
             process.stdout.write('tried:' + fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.json')).join(' ') + ';');
             fs.unlinkSync(dir + '/config.json.lock');
           });
           process.stdout.write('ready;');
           process.stdin.on('data', () => process.exit(0));`,
          dir,
          String(process.pid),
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let said = '';
      holder.stdout.on('data', (d: Buffer) => (said += d.toString()));
      while (!said.includes('ready;')) await new Promise((r) => holder.stdout.once('data', r));
      write(); // waits (synchronously) until the holder lets go
      holder.stdin.end('done');
      await new Promise((r) => holder.on('close', r));
      // The write tried the lock, and had not happened while the holder held it.
      const [ready, tried] = said.split(';');
      expect([ready, tried?.startsWith('tried:'), tried?.split(/[: ]/).includes(file)]).toEqual(['ready', true, false]);
      expect(existsSync(join(dir, file))).toBe(true);
    }
    expect(store.getSession(sessionFixture(1).id)).toBeDefined();
    expect(passkeys.get('Passkey:1')).toBeDefined();
  });
});
