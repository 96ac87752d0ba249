/**
 * The kept-key folders beside the session keys (software passkeys, pending OAuth client keys):
 * owner-only files, one per key, round trips, and a corrupt file refused naming it.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passkeyFolder, pendingOauthFolder } from '../../../src/auth/kept-keys.js';
import { createSoftwarePasskey } from '../../../src/auth/software-passkey.js';
import { StoreError } from '../../../src/store/errors.js';
import { useTempDirs } from './temp-dirs.js';

const tempConfigDir = useTempDirs('svc-keys-');

const ID = 'AuthMethod:00000000-0000-4000-8000-000000000001';

describe('kept-key folders', () => {
  it('save, get, list and delete one 0600 file per key in a 0700 folder', () => {
    const dir = tempConfigDir();
    const folder = passkeyFolder(dir);
    const passkey = {
      ...createSoftwarePasskey(),
      id: ID,
      accountId: 'InternalAccount:x',
      nickname: 'k',
      profile: 'default',
    };
    folder.save(passkey);
    expect(folder.get(ID)).toEqual(passkey);
    expect(folder.list()).toEqual([passkey]);
    expect(statSync(join(dir, 'passkeys')).mode & 0o777).toBe(0o700);
    const files = statSync(join(dir, 'passkeys', 'AuthMethod_3a00000000-0000-4000-8000-000000000001.json'));
    expect(files.mode & 0o777).toBe(0o600);
    folder.delete(ID);
    folder.delete(ID); // twice is fine
    expect(folder.get(ID)).toBeUndefined();
  });

  it('a file that is not a kept key is a StoreError naming it', () => {
    const dir = tempConfigDir();
    const folder = pendingOauthFolder(dir);
    const file = join(dir, 'pending-oauth', 'AuthMethod_3a00000000-0000-4000-8000-000000000001.json');
    writeFileSync(file, JSON.stringify({ id: ID, privateKey: 'short', nonce: 'x' }));
    let error: unknown;
    try {
      folder.get(ID);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).not.toContain('short');
  });
});
