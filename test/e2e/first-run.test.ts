/**
 * A new user's first run. `svc otp verify` alone offers the `local` profile's
 * credential on a terminal; the emulator's banner ends with a command that runs as printed; the
 * demo's OTP prompt gives the sandbox code; `demo --keep` suggests commands that run as printed;
 * the README's Quick start, run as written in its two terminals, shows a card event in the listener.
 * Terminals are pseudo-terminals through util-linux `script` (test/integration/auth/pty.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runSvc, startSvc, svcEnv, SVC_BIN, tempConfigDir } from '../helpers/spawn-svc.js';
import { useSpawnedEmulator } from '../helpers/spawned-emulator.js';
import { tempDir } from '../helpers/temp-dir.js';
import { svcOnPty } from '../integration/auth/pty.js';
import { binFolder, runLine, runOnTerminal, runServer, type Shell } from './examples/shell.js';
import { readmeBlock, withoutComment } from './examples/extract.js';

const spawned = useSpawnedEmulator();

/** bash in a work folder of configDir, `svc` on PATH, CI set (as runSvc). */
function shellFor(configDir: string): Shell {
  const bin = binFolder(tempDir('svc-bin-'));
  mkdirSync(join(configDir, 'work'), { recursive: true });
  return { cwd: join(configDir, 'work'), env: svcEnv(configDir, { PATH: `${bin}:${process.env.PATH}` }) };
}

const currentProfile = async (configDir: string) =>
  (await runSvc(['config', 'list', '--jq', '.current'], { configDir })).stdout.trim();

describe('svc otp verify with no flags, on the emulator', () => {
  it("offers the profile's credential on a terminal, and the prompt gives the sandbox code", async () => {
    const configDir = tempConfigDir();
    const ready = await spawned.start(configDir);
    const pty = svcOnPty(['otp', 'verify'], { SERVICE_CLI_CONFIG_DIR: configDir });
    try {
      await pty.waitFor(new RegExp(`Log in with ${ready.fixtures.credentialId}\\?`));
      pty.type('\r'); // the default: yes
      await pty.waitFor(/Enter the 6-digit code sent to .* \(the sandbox code is 000000\):/);
      pty.type('000000\r');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    const session = JSON.parse((await runSvc(['--json', 'session', 'show'], { configDir })).stdout);
    expect(session.credentialId).toBe(ready.fixtures.credentialId);
  });

  it("where svc cannot ask, logs in with the profile's credential and says which, naming --credential", async () => {
    const configDir = tempConfigDir();
    const ready = await spawned.start(configDir);
    const r = await runSvc(['otp', 'verify', '--code', '000000'], { configDir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Logging in with ${ready.fixtures.credentialId}`);
    expect(r.stderr).toContain('--credential');
    const session = JSON.parse((await runSvc(['--json', 'session', 'show'], { configDir })).stdout);
    expect(session.credentialId).toBe(ready.fixtures.credentialId);
  });
});

describe("the emulator's banner", () => {
  it('ends with the next command, which runs as printed (with the local profile, and without)', async () => {
    for (const args of [[], ['--no-profile']]) {
      const configDir = tempConfigDir();
      const server = startSvc(['emulator', 'start', '--port', '0', ...args], { configDir });
      try {
        await server.firstLine;
        await until(() => /^Next, /m.test(server.stdout()));
        const last = server.stdout().trimEnd().split('\n').at(-1)!;
        expect(last).toMatch(/^Next, [^:]+: .*svc otp verify --credential AuthMethod:\S+ --code 000000$/);
        const command = /^Next, [^:]+: (.*)$/.exec(last)![1]!;
        const r = await runLine(shellFor(configDir), command);
        expect({ command, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
        expect(r.stdout).toMatch(/^Session: +Session:/m);
      } finally {
        await server.stop();
      }
    }
  }, 90_000);
});

describe('svc demo', () => {
  it('--interactive: the OTP prompt says the sandbox code', async () => {
    const pty = svcOnPty(['demo', '--interactive'], { SERVICE_CLI_CONFIG_DIR: tempConfigDir() });
    try {
      await pty.waitFor(/Enter the 6-digit code.*\(the sandbox code is 000000\)/);
      pty.type('\x03');
      expect(await pty.exited).toBe(130);
    } finally {
      pty.kill();
    }
  });

  it('--keep suggests commands that run as printed, then Ctrl-C stops it and hands the profile back', async () => {
    const configDir = tempConfigDir();
    await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:1'], { configDir });
    const child = spawn(process.execPath, [SVC_BIN, 'demo', '--keep'], {
      env: svcEnv(configDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!out.includes('Press Ctrl-C to stop it.') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const suggested = out
        .slice(out.search(/in another terminal:/i))
        .split('\n')
        .filter((l) => l.startsWith('  svc '))
        .map((l) => l.trim());
      expect(suggested.length).toBeGreaterThanOrEqual(2);
      for (const command of suggested) {
        const r = await runLine(shellFor(configDir), command);
        expect({ command, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      }
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(await currentProfile(configDir)).toBe('default');
  }, 150_000);
});

describe("the README's Quick start", () => {
  it('says how many terminals it uses, and run as written, the listener shows a card event', async () => {
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toMatch(/^## Quick start .*\(two terminals\)$/m);
    const configDir = tempConfigDir();
    const shell = shellFor(configDir);
    let terminal = '1';
    let listener: Promise<unknown> | undefined;
    let shown = () => '';
    let stopListener = () => {};
    try {
      for (const text of readmeBlock('## Quick start')) {
        const marker = /^# terminal (\d)/.exec(text);
        if (marker) {
          terminal = marker[1]!;
          continue;
        }
        const line = withoutComment(text).trim();
        if (terminal === '2') {
          // The listener runs until the end, while the rest goes on in terminal 1.
          const released = new Promise<void>((resolve) => (stopListener = resolve));
          const ready = new Promise<void>((resolve) => {
            listener = runServer(shell, line, /Listening for webhooks/, (output) => {
              shown = output;
              resolve();
              return released;
            });
          });
          await Promise.race([ready, listener]);
          continue;
        }
        // What a user watches for in terminal 2 before stopping everything.
        if (line === 'svc emulator stop') await until(() => /CARD\.STATE_CHANGE/.test(shown()));
        const r =
          line === 'svc otp verify'
            ? await runOnTerminal(shell, line, [
                [/Log in with AuthMethod:/, '\r'],
                [/the sandbox code is 000000/, '000000\r'],
              ])
            : await runLine(shell, line);
        expect({ line, code: r.code, out: r.stdout + r.stderr }).toMatchObject({ code: 0 });
      }
    } finally {
      stopListener();
      await listener;
      await runSvc(['emulator', 'stop'], { configDir });
    }
    expect(shown()).toMatch(/CARD\.STATE_CHANGE .*FROZEN/);
  }, 150_000);
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
