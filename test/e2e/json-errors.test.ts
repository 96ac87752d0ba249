/**
 * Under --json every error is one JSON object on stderr whose `type` is one of the
 * documented set (README "Output and exit codes"), including commander's own parse errors.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { ERROR_TYPES } from '../../commands/render-error.js';

function jsonError(stderr: string): Record<string, unknown> {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  const { error } = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
  expect(ERROR_TYPES).toContain(error.type);
  return error;
}

describe('--json errors', () => {
  it.each([
    [['nope'], 'nope'],
    [['session', 'revoke'], 'session'],
    [['session', 'show', '--bogus'], '--bogus'],
    [['sandbox', 'fund', 'InternalAccount:x', '--amount'], '--amount <int>'],
  ])('commander parse error %j is a usage error naming %s, exit 2', async (args, field) => {
    const r = await runSvc(['--json', ...args]);
    expect(r.code).toBe(2);
    expect(jsonError(r.stderr)).toMatchObject({ type: 'usage', field });
    expect(r.stdout).toBe('');
  });

  it.each([
    [[], 'command'],
    [['session'], 'session'],
  ])('no verb (%j) under --json is a usage error, exit 2', async (args, field) => {
    const r = await runSvc(['--json', ...args]);
    expect(r.code).toBe(2);
    expect(jsonError(r.stderr)).toMatchObject({ type: 'usage', field });
  });

  it('a missing session is type auth (exit 4), an unset key failure (exit 1), never a class name', async () => {
    const auth = await runSvc(['--json', 'session', 'refresh'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9', SERVICE_API_TOKEN_ID: 'a', SERVICE_API_CLIENT_SECRET: 'b' },
    });
    expect(auth.code).toBe(4);
    expect(jsonError(auth.stderr).type).toBe('auth');
    const unset = await runSvc(['--json', 'config', 'get', 'base-url']);
    expect(unset.code).toBe(1);
    expect(jsonError(unset.stderr).type).toBe('failure');
  });

  it('a corrupt store file is type store and names the file', async () => {
    const configDir = tempConfigDir();
    writeFileSync(join(configDir, 'config.json'), '{not json');
    chmodSync(join(configDir, 'config.json'), 0o600);
    const r = await runSvc(['--json', 'config', 'list'], { configDir });
    expect(r.code).toBe(1);
    expect(jsonError(r.stderr)).toMatchObject({ type: 'store', file: join(configDir, 'config.json') });
  });
});
