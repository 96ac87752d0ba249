/** A lock left behind by a crashed process must not block the store for long. */
import { spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../../src/store/lock.js';
import { openStore } from '../../../src/store/index.js';
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
});
