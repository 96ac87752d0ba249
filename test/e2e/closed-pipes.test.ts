/**
 * A reader that goes away does not cost a login: `svc otp verify … | head -1` (stdout closed) and
 * `… 2>&1 | head -1` (stderr closed while progress is still being written) both store the session
 * key and exit 0.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createClient } from '../../src/http/index.js';
import { saveLocalProfile } from '../integration/webhook/helpers.js';

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

/**
 * A command that serves (emulator start, demo, webhook listen) stops through its cleanup when its
 * reader goes away, as with Ctrl-C, instead of ending at the first failed write.
 */
describe('a closed stdout, for a command that serves', () => {
  /** Runs `svc args` with stdout's read end closed before anything is written; its exit code and stderr. */
  function stdoutClosed(configDir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: svcEnv(configDir, env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise<{ code: number | null; stderr: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, stderr })),
    );
  }
  const current = async (configDir: string) =>
    (await runSvc(['config', 'list', '--jq', '.current'], { configDir })).stdout.trim();

  it('emulator start stops cleanly and the profile that was current is current again', async () => {
    const configDir = tempConfigDir();
    await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:1'], { configDir });
    const r = await stdoutClosed(configDir, ['emulator', 'start', '--port', '0']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Emulator stopped.');
    expect(await current(configDir)).toBe('default');
  });

  it('demo --keep stops its emulator and hands the current mark back', async () => {
    const configDir = tempConfigDir();
    await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:1'], { configDir });
    const r = await stdoutClosed(configDir, ['demo', '--keep']);
    expect(r.code).toBe(130);
    expect(await current(configDir)).toBe('default');
  }, 60_000);

  it("webhook listen stops cleanly and gives the emulator's webhook endpoint back", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const configDir = tempConfigDir();
      saveLocalProfile(configDir, emu);
      const client = createClient({
        baseUrl: emu.baseUrl,
        auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
      });
      const before = 'http://127.0.0.1:9/app-webhooks';
      await client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: before } });
      // Under --json the ready line is written to stdout at once, so the closed pipe is met at start.
      const r = await stdoutClosed(configDir, ['--json', 'webhook', 'listen', '--port', '0']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`Restored the emulator's webhook endpoint to ${before}`);
      expect(r.stderr).toMatch(/Stopped\. 0 received/);
      const config = await client.request<{ webhookEndpoint?: string }>({ method: 'GET', path: '/config' });
      expect(config.body.webhookEndpoint).toBe(before);
    } finally {
      await emu.close();
    }
  });

  it('demo deletes its temporary store, which holds session keys', async () => {
    const tmp = tempConfigDir();
    const r = await stdoutClosed(tempConfigDir(), ['demo'], { TMPDIR: tmp });
    expect(r.code).toBe(130);
    expect(readdirSync(tmp).filter((name) => name.startsWith('svc-demo-'))).toEqual([]);
  }, 60_000);
});
