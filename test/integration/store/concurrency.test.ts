/**
 * Several svc processes writing the store at the same instant must not lose each other's writes.
 * The children import the built store (dist/, built by the global setup) and are released together.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { runTogether } from './children.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs('svc-store-');

describe('store under concurrent processes', () => {
  it('keeps all 8 sessions saved by 8 processes at once', async () => {
    const dir = tempDir();
    const { codes, outputs } = await runTogether(dir, 'session', 8);
    expect(codes, outputs.join('\n')).toEqual(Array(8).fill(0));
    const ids = openStore({ dir })
      .listSessions()
      .map((s) => s.id)
      .sort();
    expect(ids).toEqual(Array.from({ length: 8 }, (_, i) => `Session:00000000-0000-4000-8000-00000000000${i}`));
  });

  it('keeps every profile written by concurrent setProfile calls', async () => {
    const dir = tempDir();
    const { codes, outputs } = await runTogether(dir, 'profiles', 6);
    expect(codes, outputs.join('\n')).toEqual(Array(6).fill(0));
    const profiles = openStore({ dir }).listProfiles();
    for (let i = 0; i < 6; i++) {
      for (let k = 0; k < 5; k++) expect(profiles[`p${i}-${k}`]).toEqual({ baseUrl: `http://127.0.0.1:${4000 + i}` });
    }
    // The same profile patched by all six, each with a field of its own: every patch was merged over
    // the latest copy, not over a stale one (which would drop another child's field).
    expect(Object.keys(profiles)).toHaveLength(31);
    expect(profiles.shared).toEqual({
      baseUrl: 'value-0',
      apiTokenId: 'value-1',
      apiClientSecret: 'value-2',
      accessToken: 'value-3',
      otpSignerPublicKey: 'value-4',
      webhookPublicKey: 'value-5',
    });
  });
});
