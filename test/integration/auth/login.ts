/** A logged-in starting point for the session tests: `svc otp verify --code 000000` via run() or spawned. */
import { run as otpVerify } from '../../../commands/otp/verify.js';
import type { StoredSession } from '../../../src/store/types.js';
import { rejected } from '../../helpers/caught.js';
import { runSvc, type SvcResult } from '../../helpers/spawn-svc.js';
import type { AuthEnv } from './support.js';

export async function login(t: AuthEnv): Promise<StoredSession> {
  await otpVerify({ credential: t.emu.fixtures.credentialId, code: '000000' }, t.deps());
  const store = t.store();
  return store.getSession(store.getProfile(store.currentProfileName())!.activeSessionId!)!;
}

/** `svc otp verify` with the fixture credential and code 000000, run as a process on t's env and config dir. */
export function spawnedLogin(t: AuthEnv): Promise<SvcResult> {
  return runSvc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'], {
    env: t.env,
    configDir: t.configDir,
  });
}

export function activeSession(t: AuthEnv): StoredSession | undefined {
  const store = t.store();
  const id = store.getProfile(store.currentProfileName())?.activeSessionId;
  return id ? store.getSession(id) : undefined;
}

/** The error a command rejects with, of any class; fails the test when the command succeeds. */
export function caught(p: Promise<unknown>): Promise<unknown> {
  return rejected(p, Error);
}
