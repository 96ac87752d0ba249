/** The store holds secrets: folder 0700, files 0600, also when they existed with looser modes. */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { sessionFixture } from './session-fixture.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();

const posix = process.platform !== 'win32';
const mode = (p: string) => statSync(p).mode & 0o777;

describe.runIf(posix)('store permissions', () => {
  it('creates the folder 0700 and every file 0600', () => {
    const dir = join(tempDir(), 'nested', 'svc');
    const store = openStore({ dir });
    store.setProfile('default', { baseUrl: 'http://127.0.0.1:4010', apiClientSecret: 'secret' });
    store.saveSession(sessionFixture(1));
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'sessions'))).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
    expect(mode(join(dir, 'sessions', 'Session_3a00000000-0000-4000-8000-000000000001.json'))).toBe(0o600);
  });

  it('tightens a folder and files created earlier with 0755/0644', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sessions'));
    const config = join(dir, 'config.json');
    const session = join(dir, 'sessions', 'Session_3a1.json');
    writeFileSync(config, JSON.stringify({ profiles: { default: { apiClientSecret: 's' } } }));
    writeFileSync(session, JSON.stringify(sessionFixture(1, { id: 'Session:1' })));
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'sessions'), 0o755);
    chmodSync(config, 0o644);
    chmodSync(session, 0o644);

    const store = openStore({ dir });
    expect([mode(dir), mode(join(dir, 'sessions')), mode(config), mode(session)]).toEqual([0o700, 0o700, 0o600, 0o600]);
    expect(store.getSession('Session:1')?.privateKey).toBe('ab'.repeat(32));
  });

  it('keeps 0600 when a session file is rewritten', () => {
    const dir = tempDir();
    const store = openStore({ dir });
    store.saveSession(sessionFixture(2));
    const file = join(dir, 'sessions', 'Session_3a00000000-0000-4000-8000-000000000002.json');
    chmodSync(file, 0o644);
    store.saveSession(sessionFixture(2, { nickname: 'changed' }));
    expect(mode(file)).toBe(0o600);
  });
});
