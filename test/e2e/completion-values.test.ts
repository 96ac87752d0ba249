/**
 * Completion of values in bash (zsh runs the same function): stored session ids, profile names,
 * config keys, scenario names and event types where they go, and never a flag where a value goes.
 * The script calls the real `svc` (a link on PATH) for what the store holds.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const configDir = tempConfigDir();
const SESSIONS = ['Session:0b7e1c2a-1111-4000-8000-000000000001', 'Session:0b7e1c2a-2222-4000-8000-000000000002'];
let script: string;
let pathDir: string;

beforeAll(async () => {
  const store = openStore({ dir: configDir });
  store.setProfile('staging', { baseUrl: 'http://127.0.0.1:9/2025-10-13' });
  store.setProfile('ci', { baseUrl: 'http://127.0.0.1:9/2025-10-13' });
  for (const id of SESSIONS) {
    store.saveSession({
      id,
      accountId: 'InternalAccount:0b7e1c2a-3333-4000-8000-000000000003',
      type: 'EMAIL_OTP',
      nickname: 'ada@example.com',
      expiresAt: '2099-01-01T00:00:00.000Z',
      privateKey: '11'.repeat(32),
      publicKey: `02${'22'.repeat(32)}`,
      profile: 'staging',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  }
  pathDir = tempDir('svc-path-');
  symlinkSync(SVC_BIN, join(pathDir, 'svc'));
  script = join(pathDir, 'svc.bash');
  writeFileSync(script, (await runSvc(['completion', 'bash'], { configDir })).stdout);
});

/** What bash offers for the last word of `words`. */
function complete(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source "$0"; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`,
      script,
    ],
    { encoding: 'utf8', env: svcEnv(configDir, { PATH: `${pathDir}:${process.env.PATH}` }) },
  );
  return out.split('\n').filter(Boolean);
}

describe('shell completion of values', () => {
  it('stored session ids after session use/revoke/refresh and --session, whole ids with their colon', () => {
    for (const verb of ['use', 'revoke', 'refresh']) expect(complete(['svc', 'session', verb, ''])).toEqual(SESSIONS);
    expect(complete(['svc', 'session', 'use', 'Session:0b7e1c2a-2'])).toEqual([SESSIONS[1]]);
    expect(complete(['svc', 'api', 'GET', '/customers', '--session', ''])).toEqual(SESSIONS);
  });

  it('profile names after --profile and config use/delete/rename; config keys after config get/set/unset', () => {
    expect(complete(['svc', '--profile', ''])).toEqual(['ci', 'staging']);
    expect(complete(['svc', '--profile', 'st'])).toEqual(['staging']);
    for (const verb of ['use', 'delete', 'rename'])
      expect(complete(['svc', 'config', verb, ''])).toEqual(['ci', 'staging']);
    expect(complete(['svc', 'config', 'get', 'otp'])).toEqual(['otp-signer']);
    expect(complete(['svc', 'config', 'set', ''])).toContain('base-url');
  });

  it('scenario names after trigger; event types after --events (each item of a list) and --type', () => {
    expect(complete(['svc', 'trigger', 'quote.lo'])).toEqual(['quote.long']);
    expect(complete(['svc', 'trigger', ''])).toContain('kyc.rejected');
    expect(complete(['svc', 'webhook', 'listen', '--events', 'CARD.STATE'])).toEqual(['CARD.STATE_CHANGE']);
    expect(complete(['svc', 'webhook', 'listen', '--events', 'CARD.STATE_CHANGE,CARD.FUND'])).toEqual([
      'CARD.STATE_CHANGE,CARD.FUNDING_SOURCE_CHANGE',
    ]);
    expect(complete(['svc', 'webhook', 'replay', '--type', 'CARD.STATE'])).toEqual(['CARD.STATE_CHANGE']);
  });

  it('never a flag where a value goes: after a value flag, or where an argument is still missing', () => {
    for (const words of [
      ['svc', '--jq', ''],
      ['svc', 'sandbox', 'fund', ''],
      ['svc', 'sandbox', 'fund', 'InternalAccount:x', '--amount', ''],
      ['svc', 'webhook', 'listen', '--forward-to', ''],
      ['svc', 'session', 'use', ''],
    ])
      expect(
        complete(words).filter((w) => w.startsWith('-')),
        words.join(' '),
      ).toEqual([]);
    // Once the argument is there, the flags come back; `--events` of trigger is a switch, not a list.
    expect(complete(['svc', 'sandbox', 'fund', 'InternalAccount:x', '--am'])).toEqual(['--amount']);
    expect(complete(['svc', 'trigger', 'kyc.pending', '--events', '--wa'])).toEqual(['--wait']);
  });

  it('svc completion --values prints what the store holds; any other kind is exit 2', async () => {
    const sessions = await runSvc(['completion', '--values', 'sessions'], { configDir });
    expect(sessions.stdout.trim().split('\n')).toEqual(SESSIONS);
    const bad = await runSvc(['completion', '--values', 'nouns'], { configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--values must be one of sessions, profiles; got "nouns"');
    expect((await runSvc(['completion'], { configDir })).code).toBe(2);
  });

  it("a flag's choices from its spec after the flag (completion --values)", () => {
    expect(complete(['svc', 'completion', '--values', ''])).toEqual(['sessions', 'profiles']);
    expect(complete(['svc', 'completion', '--values', 'pr'])).toEqual(['profiles']);
  });
});
