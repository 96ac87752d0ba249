import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc, SVC_BIN } from '../helpers/spawn-svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('svc (spawned)', () => {
  it('prints the version', async () => {
    const r = await runSvc(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('lists every noun in --help', async () => {
    const r = await runSvc(['--help']);
    expect(r.code).toBe(0);
    for (const noun of ['keys', 'otp', 'session', 'sandbox', 'cards', 'webhook', 'emulator', 'config', 'demo']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${noun}\\b`, 'm'));
    }
  });

  it("shows a noun's verbs in its help", async () => {
    const r = await runSvc(['session', '--help']);
    expect(r.code).toBe(0);
    for (const verb of ['list', 'refresh', 'revoke', 'use', 'show']) expect(r.stdout).toContain(verb);
  });

  it('exits 2 on an unknown command or flag, naming it', async () => {
    const unknown = await runSvc(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('frobnicate');
    const badFlag = await runSvc(['keys', 'generate', '--bogus']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--bogus');
  });

  it('exits 2 on a whole-number flag out of its range, naming the flag and the range, before any work', async () => {
    const port = await runSvc(['webhook', 'listen', '--port', '70000', '--skip-verify']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer from 0 to 65535, got "70000"');
    const last = await runSvc(['webhook', 'replay', '--store', join(tmpdir(), 'no-such-journal'), '--last', '1.5']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('--last must be an integer of 1 or more, got "1.5"');
  });

  it('renders errors as JSON on stderr under --json, leaving stdout empty', async () => {
    const r = await runSvc(['--json', 'keys', 'stamp', '--payload', 'x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const body = JSON.parse(r.stderr.trim()) as { error: { type: string; field?: string } };
    expect(body.error.type).toBe('usage');
  });

  it('colours errors with FORCE_COLOR, and NO_COLOR or --no-color win over it', async () => {
    const args = ['sandbox', 'send', '--quote', 'Quote:x', '--currency', 'USD'];
    const forced = await runSvc(args, { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('\u001b[31mError:');
    const noColor = await runSvc(args, { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(noColor.stderr).toMatch(/^Error:/);
    const flag = await runSvc(['--no-color', ...args], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(flag.stderr).toMatch(/^Error:/);
  });

  it('decides colour for stderr by stderr: a terminal on stdout does not colour a redirected stderr', async () => {
    const dir = tempDir('svc-colour-');
    const errFile = join(dir, 'stderr.txt');
    // util-linux script gives the command a terminal on stdout; stderr goes to a plain file.
    const command = `stty cols 100; ${process.execPath} ${SVC_BIN} config set api-client-secret s3cr3t-value-abcd-1234 2>${errFile}`;
    await new Promise<void>((resolve, reject) => {
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', SERVICE_CLI_CONFIG_DIR: dir },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.on('error', reject);
      child.on('close', () => resolve());
      child.stdin.end();
    });
    const stderr = readFileSync(errFile, 'utf8');
    expect(stderr).toContain('Warning:'); // the shell-history warning was written…
    expect(stderr).not.toContain('\u001b['); // …without colour codes
  });
});
