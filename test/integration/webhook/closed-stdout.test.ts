/**
 * `svc webhook listen | head -1`: once stdout's reader is gone the listener stops by itself within
 * a second or two, with no delivery needed to find out (a real pipe, as a shell makes it, and the
 * socket a parent process's stdio pipe is); a delivery that could not be printed is not
 * acknowledged (the service retries it) nor recorded as seen.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SVC_BIN, svcEnv } from '../../helpers/spawn-svc.js';
import { deliver, envelope, keys } from './helpers.js';
import { lines, spawnListener } from './spawn-listener.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dir = tempDir('svc-closed-stdout-');
/** Kills what a failed test left running (its process group), then removes the folder. */
const leftovers: Array<() => void> = [];
afterAll(() => {
  for (const kill of leftovers) kill();
  rmSync(dir, { recursive: true, force: true });
});
let n = 0;
const configDir = () => {
  const path = join(dir, `config-${++n}`);
  mkdirSync(path);
  return path;
};

describe('a listener whose stdout reader is gone', () => {
  it('under a shell pipe into `head -1`: exits 0 once head has the ready line, with no delivery arriving, journal closed', async () => {
    const store = join(dir, 'pipe.journal');
    // pipefail: the pipeline's status is the listener's own; the test's timeout bounds the wait.
    const shell = spawn(
      'bash',
      [
        '-c',
        'set -o pipefail; "$0" "$@" | head -1',
        process.execPath,
        SVC_BIN,
        '--json',
        'webhook',
        'listen',
        '--port',
        '0',
        '--public-key',
        keys.publicKeyPem,
        '--store',
        store,
      ],
      { env: svcEnv(configDir()), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    leftovers.push(() => {
      if (shell.exitCode === null) process.kill(-shell.pid!, 'SIGKILL');
    });
    let out = '';
    let err = '';
    shell.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    shell.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => shell.on('close', resolve));
    expect(JSON.parse(out)).toMatchObject({ ready: true });
    expect(err).toContain("stdout's reader is gone");
    expect(err).toContain('Stopped.');
    expect(code).toBe(0);
    expect(existsSync(`${store}.lock`)).toBe(false);
  });

  it('on a socket whose reader closed: exits 0 with no delivery arriving', async () => {
    const l = await spawnListener(['webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem], configDir());
    leftovers.push(l.kill);
    try {
      l.closeStdout();
      expect(await l.exited()).toBe(0);
      expect(l.stderr()).toContain("stdout's reader is gone");
    } finally {
      l.kill();
    }
  });

  it('answers the delivery it could not print with an error, records nothing, and exits', async () => {
    const store = join(dir, 'journal.log');
    const args = ['webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem, '--store', store];
    const first = await spawnListener(args, configDir());
    leftovers.push(first.kill);
    const event = envelope();
    try {
      first.closeStdout();
      // Either the failed write answers it 500, or the listener noticed first and is gone: never a 200.
      const answer = await deliver(first.url, event).then(
        (a) => a.status,
        (error: NodeJS.ErrnoException) => error.code ?? 'no answer',
      );
      expect(answer === 500 || typeof answer === 'string').toBe(true);
      expect(await first.exited()).toBe(0);
    } finally {
      first.kill();
    }
    // The service's retry reaches a listener with a reader: shown, not dropped as a duplicate.
    const second = await spawnListener(args, configDir());
    try {
      expect((await deliver(second.url, event)).status).toBe(200);
      expect(lines(second.stdout()).join('\n')).toContain(event.id);
    } finally {
      await second.stop();
    }
  });
});
