/**
 * Where the store lives when nothing names a folder (no SERVICE_CLI_CONFIG_DIR): $XDG_CONFIG_HOME/
 * service-cli, else ~/.config/service-cli on macOS as on Linux, and a store an earlier version left
 * at the old macOS place (~/Library/Preferences/service-cli) is moved there once, with a note. The
 * CLI runs as a real process; on macOS it is this machine with process.platform reported as darwin.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SVC_BIN } from '../helpers/spawn-svc.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A fresh home, and a preload that makes the CLI see the given platform. */
function home(platform: NodeJS.Platform): { home: string; preload: string } {
  const dir = tempDir('svc-home-');
  const preload = join(dir, 'platform.cjs');
  writeFileSync(preload, `Object.defineProperty(process, 'platform', { value: ${JSON.stringify(platform)} });`);
  return { home: dir, preload };
}

function svc(args: string[], where: { home: string; preload: string }, env: NodeJS.ProcessEnv = {}) {
  // HOME and the test's own variables only: no SERVICE_CLI_CONFIG_DIR, so the default folder is used.
  return spawnSync(process.execPath, ['--require', where.preload, SVC_BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: where.home, CI: 'true', NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
}

const setBaseUrl = ['config', 'set', 'base-url', 'http://127.0.0.1:4010'];

describe('the default store folder', () => {
  it('is ~/.config/service-cli on macOS, not ~/Library/Preferences', () => {
    const mac = home('darwin');
    const r = svc(setBaseUrl, mac);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('Warning');
    const config = JSON.parse(readFileSync(join(mac.home, '.config', 'service-cli', 'config.json'), 'utf8'));
    expect(config.profiles.default.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    expect(existsSync(join(mac.home, 'Library'))).toBe(false);
  });

  it.each(['darwin', 'linux'] as const)('is $XDG_CONFIG_HOME/service-cli when that is set (%s)', (platform) => {
    const where = home(platform);
    const xdg = join(where.home, 'xdg');
    expect(svc(setBaseUrl, where, { XDG_CONFIG_HOME: xdg }).status).toBe(0);
    expect(existsSync(join(xdg, 'service-cli', 'config.json'))).toBe(true);
    expect(existsSync(join(where.home, '.config'))).toBe(false);
  });

  it('takes over a store left at the old macOS place once, saying so, with its profiles and session keys', () => {
    const mac = home('darwin');
    const old = join(mac.home, 'Library', 'Preferences', 'service-cli');
    mkdirSync(join(old, 'sessions'), { recursive: true, mode: 0o700 });
    const profile = { baseUrl: 'http://127.0.0.1:4010/2025-10-13', apiTokenId: 'tok_old' };
    writeFileSync(join(old, 'config.json'), JSON.stringify({ currentProfile: 'old', profiles: { old: profile } }), {
      mode: 0o600,
    });
    writeFileSync(join(old, 'sessions', 'Session_1.json'), '{}', { mode: 0o600 });

    const first = svc(['config', 'get', 'api-token-id'], mac);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('tok_old\n');
    const now = join(mac.home, '.config', 'service-cli');
    expect(first.stderr).toContain(`moved the store from ${old} to ${now}`);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(now, 'sessions', 'Session_1.json'))).toBe(true);

    const second = svc(['config', 'get', 'api-token-id'], mac);
    expect(second).toMatchObject({ status: 0, stdout: 'tok_old\n', stderr: '' });
  });
});
