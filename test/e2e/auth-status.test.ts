/** `svc auth status`: the token and the active session checked against the service (a spawned svc, a real emulator). */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { tempDir } from '../helpers/temp-dir.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv()));
afterAll(() => t.close());

const svc = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runSvc(args, { env: { ...t.env, ...env }, configDir: t.configDir });

describe('svc auth status', () => {
  it('a fresh install is "not logged in" (exit 4, as gh), naming svc emulator start --detach', async () => {
    const configDir = tempDir('svc-fresh-');
    try {
      const r = await runSvc(['auth', 'status'], { configDir });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('Not logged in: profile "default" has no base URL.');
      expect(r.stderr).toContain('svc emulator start --detach');
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('a sandbox token without a session: accepted, sandbox, and how to log in (exit 0)', async () => {
    const r = await svc(['auth', 'status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ API token \S+: accepted; sandbox/);
    expect(r.stdout).toContain('No active session');
    expect(r.stderr).toContain('svc otp verify --credential');
  });

  it('after a login the session is live on the service; after its revocation it is not', async () => {
    const login = await svc([
      '--json',
      'otp',
      'verify',
      '--credential',
      t.emu.fixtures.credentialId,
      '--code',
      '000000',
    ]);
    expect(login.code, login.stderr).toBe(0);
    const { id } = JSON.parse(login.stdout) as { id: string };
    const live = JSON.parse((await svc(['--json', 'auth', 'status'])).stdout);
    expect(live).toMatchObject({
      credential: { kind: 'api-token', accepted: true, environment: 'sandbox' },
      session: { id, keyHere: true, live: true, type: 'EMAIL_OTP' },
    });
    // Revoked behind svc's back (another machine): the store still has the key, the service says no.
    expect((await svc(['api', 'DELETE', `/auth/sessions/${id}`])).code).toBe(0);
    const gone = await svc(['auth', 'status']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`✗ Session ${id}`);
    expect(gone.stdout).toContain('no longer live on the service');
    // A dead session cannot be refreshed (refresh is signed by the session): the hint logs in again.
    expect(gone.stderr).toContain(`Log in again: svc otp verify --credential ${t.emu.fixtures.credentialId}`);
    expect(gone.stderr).not.toMatch(/refresh/i);
  });

  it('a refused token is exit 4, and the session is not reported as checked', async () => {
    const r = await svc(['--json', 'auth', 'status'], { SERVICE_API_CLIENT_SECRET: 'not-the-secret' });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).credential).toMatchObject({ accepted: false });
    expect(JSON.parse(r.stdout).session.live).toBeNull();
    expect(JSON.parse(r.stderr).error.type).toBe('auth');
  });
});
