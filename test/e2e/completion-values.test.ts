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
  completeAll();
});

/**
 * The command lines the tests complete, registered as the file is collected and all completed in one
 * bash (beforeAll), each in a subshell of its own so that no case sees another's state; a test reads
 * what bash offered for its own line. One bash per line was slow on a loaded machine.
 */
const lines: string[][] = [];
const offered = new Map<string, string[]>();

/** Registers `words`; the function returned gives what bash offers for its last word. */
function offers(...words: string[]): () => string[] {
  lines.push(words);
  const key = JSON.stringify(words);
  return () => {
    const got = offered.get(key);
    if (got === undefined) throw new Error(`not completed in the batch: ${words.join(' ')}`);
    return got;
  };
}

/** Completes every registered line in one bash; each answer follows a marker line with its index. */
function completeAll(): void {
  const marker = '@@svc-completion-case';
  const cases = lines.map((words, i) => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    return `printf '%s\\n' '${marker} ${i}'; ( COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}" )`;
  });
  const out = execFileSync('bash', ['-c', `source "$0"\n${cases.join('\n')}`, script], {
    encoding: 'utf8',
    env: svcEnv(configDir, { PATH: `${pathDir}:${process.env.PATH}` }),
  });
  for (const block of out.split(`${marker} `).slice(1)) {
    const [index, ...words] = block.split('\n');
    offered.set(JSON.stringify(lines[Number(index)]), words.filter(Boolean));
  }
}

describe('shell completion of values', () => {
  const sessionVerbs = ['use', 'revoke', 'refresh'].map((verb) => [verb, offers('svc', 'session', verb, '')] as const);
  const sessionPrefix = offers('svc', 'session', 'use', 'Session:0b7e1c2a-2');
  const sessionFlag = offers('svc', 'api', 'GET', '/customers', '--session', '');
  it('stored session ids after session use/revoke/refresh and --session, whole ids with their colon', () => {
    for (const [verb, offer] of sessionVerbs) expect(offer(), verb).toEqual(SESSIONS);
    expect(sessionPrefix()).toEqual([SESSIONS[1]]);
    expect(sessionFlag()).toEqual(SESSIONS);
  });

  const profileFlag = offers('svc', '--profile', '');
  const profilePrefix = offers('svc', '--profile', 'st');
  const profileVerbs = ['use', 'delete', 'rename'].map((verb) => [verb, offers('svc', 'config', verb, '')] as const);
  const keyPrefix = offers('svc', 'config', 'get', 'otp');
  const setKeys = offers('svc', 'config', 'set', '');
  it('profile names after --profile and config use/delete/rename; config keys after config get/set/unset', () => {
    expect(profileFlag()).toEqual(['ci', 'staging']);
    expect(profilePrefix()).toEqual(['staging']);
    for (const [verb, offer] of profileVerbs) expect(offer(), verb).toEqual(['ci', 'staging']);
    expect(keyPrefix()).toEqual(['otp-signer']);
    expect(setKeys()).toContain('base-url');
  });

  const scenarioPrefix = offers('svc', 'trigger', 'quote.lo');
  const scenarios = offers('svc', 'trigger', '');
  const eventsPrefix = offers('svc', 'webhook', 'listen', '--events', 'CARD.STATE');
  const eventsListItem = offers('svc', 'webhook', 'listen', '--events', 'CARD.STATE_CHANGE,CARD.FUND');
  const typePrefix = offers('svc', 'webhook', 'replay', '--type', 'CARD.STATE');
  it('scenario names after trigger; event types after --events (each item of a list) and --type', () => {
    expect(scenarioPrefix()).toEqual(['quote.long']);
    expect(scenarios()).toContain('kyc.rejected');
    expect(eventsPrefix()).toEqual(['CARD.STATE_CHANGE']);
    expect(eventsListItem()).toEqual(['CARD.STATE_CHANGE,CARD.FUNDING_SOURCE_CHANGE']);
    expect(typePrefix()).toEqual(['CARD.STATE_CHANGE']);
  });

  const valueSlots = [
    ['svc', '--jq', ''],
    ['svc', 'sandbox', 'fund', ''],
    ['svc', 'sandbox', 'fund', 'InternalAccount:x', '--amount', ''],
    ['svc', 'webhook', 'listen', '--forward-to', ''],
    ['svc', 'session', 'use', ''],
  ].map((words) => [words, offers(...words)] as const);
  const amountFlag = offers('svc', 'sandbox', 'fund', 'InternalAccount:x', '--am');
  const waitFlag = offers('svc', 'trigger', 'kyc.pending', '--events', '--wa');
  it('never a flag where a value goes: after a value flag, or where an argument is still missing', () => {
    for (const [words, offer] of valueSlots)
      expect(
        offer().filter((w) => w.startsWith('-')),
        words.join(' '),
      ).toEqual([]);
    // Once the argument is there, the flags come back; `--events` of trigger is a switch, not a list.
    expect(amountFlag()).toEqual(['--amount']);
    expect(waitFlag()).toEqual(['--wait']);
  });

  it('svc completion --values prints what the store holds; any other kind is exit 2', async () => {
    const sessions = await runSvc(['completion', '--values', 'sessions'], { configDir });
    expect(sessions.stdout.trim().split('\n')).toEqual(SESSIONS);
    const bad = await runSvc(['completion', '--values', 'nouns'], { configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--values must be one of sessions, profiles; got "nouns"');
    expect((await runSvc(['completion'], { configDir })).code).toBe(2);
  });

  const kinds = offers('svc', 'completion', '--values', '');
  const kindPrefix = offers('svc', 'completion', '--values', 'pr');
  it("a flag's choices from its spec after the flag (completion --values)", () => {
    expect(kinds()).toEqual(['sessions', 'profiles']);
    expect(kindPrefix()).toEqual(['profiles']);
  });
});
