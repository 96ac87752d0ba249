/**
 * A reader that goes away does not cost a login: `svc otp verify … | head -1` (stdout closed) and
 * `… 2>&1 | head -1` (stderr closed while progress is still being written) both store the session
 * key and exit 0.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';
import { SVC_BIN, svcEnv } from '../helpers/spawn-svc.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv()));
afterAll(() => t.close());

/** Runs `svc args` with the read ends of the chosen pipes closed at once, as `| head -1` does once it has its line. */
function withClosedPipes(args: string[], closed: ('stdout' | 'stderr')[]): Promise<number | null> {
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: svcEnv(t.configDir, t.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const name of closed) child[name].destroy();
  for (const name of ['stdout', 'stderr'] as const) if (!closed.includes(name)) child[name].resume();
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

describe('a closed output pipe', () => {
  for (const closed of [['stdout'], ['stderr'], ['stdout', 'stderr']] as const) {
    it(`otp verify with ${closed.join(' and ')} closed still stores the session and exits 0`, async () => {
      const before = activeSession(t)?.id;
      const code = await withClosedPipes(
        ['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'],
        [...closed],
      );
      expect(code).toBe(0);
      const after = activeSession(t);
      expect(after?.id).toBeDefined();
      expect(after?.id).not.toBe(before);
    });
  }
});
