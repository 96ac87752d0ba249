/**
 * Every signed flow (otp verify, session
 * refresh, session revoke) shows the same spinner and the same PROCESSING line on stderr; Ctrl-C
 * during the spinner says "Interrupted" (exit 130), never "failed"; "n" to a confirmation is exit
 * 1 "Cancelled"; a rejected OTP gets the failure glyph, and no answered prompt gets a tick; and
 * `--code -` on a terminal prompts after the challenge (item 10).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession, spawnedLogin } from '../integration/auth/login.js';
import { svcOnPty, type PtySession } from '../integration/auth/pty.js';
import { generateKeyPair } from '../../src/crypto/keys.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv({ processingRetries: 2 });
});
afterAll(() => t.close());

const PROCESSING = /Service still processing \(attempt 1\); re-sending the identical signed request/;

async function finished(pty: PtySession): Promise<{ code: number | null; screen: string }> {
  try {
    return { code: await pty.exited, screen: pty.screen() };
  } finally {
    pty.kill();
  }
}

it('otp verify, credentials add and session revoke show the PROCESSING line, like refresh', async () => {
  const login = await finished(
    svcOnPty(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'], t.env),
  );
  expect(login.code).toBe(0);
  expect(login.screen).toMatch(PROCESSING);
  expect(login.screen).toMatch(/✓ Code accepted/);

  const refresh = await finished(svcOnPty(['session', 'refresh'], t.env));
  expect(refresh.code).toBe(0);
  expect(refresh.screen).toMatch(PROCESSING);

  const add = await finished(svcOnPty(['credentials', 'add', 'passkey', '--software'], t.env));
  expect(add.code).toBe(0);
  expect(add.screen).toMatch(PROCESSING);
  expect(add.screen).toMatch(/✓ Added AuthMethod:/);

  const target = activeSession(t)!;
  const revoke = await finished(svcOnPty(['--yes', 'session', 'revoke', target.id], t.env));
  expect(revoke.code).toBe(0);
  expect(revoke.screen).toMatch(PROCESSING);
  expect(revoke.screen).toMatch(new RegExp(`✓ Revoked ${target.id}`));
  // One glyph set: ora's own marks never appear.
  expect(login.screen + refresh.screen + add.screen + revoke.screen).not.toMatch(/[✔✖]/);
});

it('off a terminal, --json keeps stderr free of progress lines', async () => {
  const r = await runSvc(['--json', 'otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'], {
    env: t.env,
    configDir: t.configDir,
  });
  expect(r.code).toBe(0);
  expect(r.stderr).not.toMatch(/still processing/);
});

it('answering "n" to the revoke confirmation is exit 1 "Cancelled", and the answer gets no tick', async () => {
  const target = activeSession(t)!;
  const pty = svcOnPty(['session', 'revoke', target.id], t.env);
  await pty.waitFor(/Revoke Session:\S+\?/);
  pty.type('n\r');
  const { code, screen } = await finished(pty);
  expect(code).toBe(1);
  expect(screen).toMatch(/Cancelled: nothing was revoked/);
  expect(screen).not.toMatch(/Interrupted/);
  expect(screen).not.toMatch(/[✔✓]/);
  expect(t.store().getSession(target.id)).toBeDefined();
});

it('a rejected code is marked with the failure glyph, never a tick', async () => {
  const pty = svcOnPty(['otp', 'verify', '--credential', t.emu.fixtures.credentialId], t.env);
  const first = await pty.waitFor(/Enter the 6-digit code/);
  pty.type('123456\r');
  const second = await pty.waitFor(/attempt 2 of 3/, first);
  const rejectedPart = pty.screen().slice(first, second);
  pty.type('000000\r');
  const { code, screen } = await finished(pty);
  expect(code).toBe(0);
  expect(rejectedPart).toMatch(/✗ That code was not accepted/);
  expect(rejectedPart).not.toMatch(/[✔✓]/);
  expect(screen).not.toMatch(/✔/);
});

it('--code - on a terminal prompts (masked) after the challenge instead of waiting silently', async () => {
  const before = t.proxy.count('/challenge');
  const pty = svcOnPty(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '-'], t.env);
  await pty.waitFor(/Enter the 6-digit code sent to/);
  expect(t.proxy.count('/challenge')).toBe(before + 1);
  pty.type('000000\r');
  const { code, screen } = await finished(pty);
  expect(code).toBe(0);
  // The prompt itself gives the emulator's code; the typed one is never echoed.
  expect(screen.replaceAll('the sandbox code is 000000', '')).not.toContain('000000');
});

it('Ctrl-C while the spinner waits on PROCESSING says Interrupted (exit 130), not failed', async () => {
  const slow = await authEnv({ processingRetries: 1000 });
  try {
    const env = { ...slow.env, SERVICE_CLI_CONFIG_DIR: t.configDir };
    const pty = svcOnPty(['otp', 'verify', '--credential', slow.emu.fixtures.credentialId, '--code', '000000'], env);
    await pty.waitFor(PROCESSING);
    pty.type('\x03');
    const { code, screen } = await finished(pty);
    expect(code).toBe(130);
    expect(screen).toMatch(/✗ Interrupted/);
    expect(screen).not.toMatch(/failed/i);
  } finally {
    await slow.close();
  }
});

it('svc api shows the same spinner, PROCESSING line and ending as the other signed flows', async () => {
  expect((await spawnedLogin(t)).code).toBe(0);
  const victim = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
  const api = await finished(svcOnPty(['api', 'DELETE', `/auth/sessions/${victim.id}`], t.env));
  expect(api.code).toBe(0);
  expect(api.screen).toMatch(PROCESSING);
  expect(api.screen).toMatch(/✓ Signed the challenge with Session:/);
  expect(api.screen).not.toMatch(/[✔✖]/);
});
