/**
 * `svc cards reveal --open` with a browser that fails (BROWSER=false): the command fails (exit 1) and
 * says how to see the card. The one-use link is a secret: it is printed only to a terminal (the
 * user's own screen, who asked to see the card), never into a pipe, a log or stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc } from '../helpers/spawn-svc.js';
import { emulatorEnv } from '../integration/commands/helpers.js';
import { svcOnPty } from '../integration/auth/pty.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

const EMBED_URL = /http:\/\/127\.0\.0\.1:\d+\/embed\/cards\/[A-Za-z0-9_-]{20,}/;

describe('cards reveal --open with a browser that fails', () => {
  it('into a pipe: exit 1, no link anywhere, and how to see the card', async () => {
    const r = await runSvc(['cards', 'reveal', emu.fixtures.cardId, '--open'], {
      env: { ...emulatorEnv(emu), BROWSER: 'false' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('The browser did not open the page (false: exit status 1).');
    expect(r.stderr).toContain(`svc cards reveal ${emu.fixtures.cardId} --open\` on a terminal`);
    expect(r.stderr).not.toMatch(/\/embed\//);
  });

  it('on a terminal: the link is printed there, and the command still fails', async () => {
    const pty = svcOnPty(['cards', 'reveal', emu.fixtures.cardId, '--open'], { ...emulatorEnv(emu), BROWSER: 'false' });
    const code = await pty.exited;
    expect(code, pty.screen()).toBe(1);
    expect(pty.screen()).toMatch(EMBED_URL);
    expect(pty.screen()).toContain('Open the link printed above in a browser');
  });
});
