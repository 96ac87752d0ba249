/**
 * conf is the store's library for its files (src/store/json-file.ts): each file has one Conf
 * instance, and every read and write of it goes through that instance's `store`, not around it.
 * conf is wrapped here only to count what the store asks of it; it still does the reading and
 * writing.
 */
import { join } from 'node:path';
import type Conf from 'conf';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { sessionFixture } from './session-fixture.js';
import { useTempDirs } from './temp-dirs.js';

/** Per file conf keeps: instances made, reads (`store` got) and writes (`store` set). */
const uses = vi.hoisted(() => new Map<string, { instances: number; reads: number; writes: number }>());

vi.mock('conf', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof Conf<Record<string, unknown>> }).default;
  const of = (path: string) => {
    if (!uses.has(path)) uses.set(path, { instances: 0, reads: 0, writes: 0 });
    return uses.get(path)!;
  };
  class CountedConf extends real {
    constructor(options: ConstructorParameters<typeof real>[0]) {
      super(options);
      of(this.path).instances++;
    }
    override get store(): Record<string, unknown> {
      of(this.path).reads++;
      return super.store;
    }
    override set store(value: Record<string, unknown>) {
      of(this.path).writes++;
      super.store = value;
    }
  }
  return { default: CountedConf };
});

const tempDir = useTempDirs('svc-store-conf-');
beforeEach(() => uses.clear());

describe('the store through conf', () => {
  it('reads and writes config.json through one Conf instance', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    store.setProfile('a', { baseUrl: 'http://127.0.0.1:1' });
    store.setProfile('b', { baseUrl: 'http://127.0.0.1:2' });
    store.setCurrentProfile('b');
    expect(store.getProfile('a')).toEqual({ baseUrl: 'http://127.0.0.1:1' });
    expect(store.currentProfileName()).toBe('b');
    const config = uses.get(join(dir, 'config.json'));
    expect(config?.instances).toBe(1);
    // Three updates, each a read inside the lock and a write; then two reads of the result.
    expect(config?.writes).toBe(3);
    expect(config?.reads).toBeGreaterThanOrEqual(5);
  });

  it('reads and writes each session file through its own Conf instance', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    const [one, two] = [sessionFixture(1), sessionFixture(2)];
    store.saveSession(one);
    store.saveSession(two);
    store.saveSession({ ...one, nickname: 'again' });
    expect(store.getSession(one.id)?.nickname).toBe('again');
    expect(store.listSessions().map((s) => s.id)).toEqual([one.id, two.id]);
    const sessions = [...uses].filter(([path]) => path.startsWith(join(dir, 'sessions')));
    expect(sessions.map(([, use]) => use.instances)).toEqual([1, 1]);
    expect(sessions.map(([, use]) => use.writes)).toEqual([2, 1]);
    expect(sessions.every(([, use]) => use.reads >= 1)).toBe(true);
  });
});
