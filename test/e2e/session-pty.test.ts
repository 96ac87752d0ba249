/**
 * `svc session refresh` on a pseudo-terminal: an expired session offers to run the OTP login and
 * accepting it logs in again; a live session refreshes with the spinner and exits cleanly.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authEnv, leakedSecrets, type AuthEnv } from '../integration/auth/support.js';
import { activeSession, spawnedLogin } from '../integration/auth/login.js';
import { svcOnPty } from '../integration/auth/pty.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv({ processingRetries: 1 });
});
afterAll(() => t.close());

it('offers otp verify for an expired session, then refreshes the new one with a spinner', async () => {
  expect((await spawnedLogin(t)).code).toBe(0);
  const expired = activeSession(t)!;
  t.store().saveSession({ ...expired, expiresAt: new Date(Date.now() - 60_000).toISOString() });

  const offer = svcOnPty(['session', 'refresh'], t.env);
  try {
    await offer.waitFor(/Run svc otp verify --credential \S+ now\?/);
    offer.type('y\r');
    await offer.waitFor(/Enter the 6-digit code/);
    offer.type('000000\r');
    expect(await offer.exited).toBe(0);
  } finally {
    offer.kill();
  }
  const relogged = activeSession(t)!;
  expect(relogged.id).not.toBe(expired.id);

  const spin = svcOnPty(['session', 'refresh'], t.env);
  try {
    expect(await spin.exited).toBe(0);
  } finally {
    spin.kill();
  }
  expect(spin.screen()).toMatch(/Refreshed Session:/);
  const refreshed = activeSession(t)!;
  expect(refreshed.id).not.toBe(relogged.id);
  expect(
    leakedSecrets(offer.screen() + spin.screen(), [
      expired.privateKey,
      relogged.privateKey,
      refreshed.privateKey,
      t.emu.apiClientSecret,
    ]),
  ).toEqual([]);
});
