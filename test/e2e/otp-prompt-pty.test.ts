/**
 * The real OTP prompt through a pseudo-terminal (util-linux `script`, CI unset): the test types
 * into it like a person would. A wrong code first, then the right one: the second prompt must
 * come from a fresh challenge, and neither code may be echoed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authEnv, leakedSecrets, sessionFileModes, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';
import { svcOnPty } from '../integration/auth/pty.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

it('prompts for the code on a terminal (masked), retries a wrong code, and stores the session', async () => {
  const pty = svcOnPty(['otp', 'verify', '--credential', t.emu.fixtures.credentialId], t.env);
  try {
    const first = await pty.waitFor(/Enter the 6-digit code sent to/);
    pty.type('123456\r');
    await pty.waitFor(/attempt 2 of 3/, first);
    pty.type('000000\r');
    expect(await pty.exited).toBe(0);
  } finally {
    pty.kill();
  }

  const stored = activeSession(t)!;
  const screen = pty.screen();
  expect(stored.credentialId).toBe(t.emu.fixtures.credentialId);
  expect(sessionFileModes(t.configDir)).toEqual([0o600]);
  expect(t.proxy.count('/challenge')).toBe(2);
  expect(screen).toContain(stored.id);
  // Masked: neither typed code is echoed, and no secret reaches the terminal.
  expect(screen).not.toContain('123456');
  // The prompt itself gives the emulator's code; the typed one is never echoed.
  expect(screen.replaceAll('the sandbox code is 000000', '')).not.toContain('000000');
  expect(leakedSecrets(screen, [stored.privateKey, t.emu.apiClientSecret])).toEqual([]);
});

it('Ctrl-C at the demo\'s OTP prompt exits 130 with "Interrupted.", not a failed step', async () => {
  const pty = svcOnPty(['demo', '--interactive'], {});
  try {
    await pty.waitFor(/Enter the 6-digit code/);
    pty.type('\x03');
    expect(await pty.exited).toBe(130);
  } finally {
    pty.kill();
  }
  expect(pty.screen()).toContain('Interrupted.');
  expect(pty.screen()).not.toContain('failed');
});
