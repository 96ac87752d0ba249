/**
 * What completion offers after a flag, from the flag's own declaration, in the scripts `svc
 * completion bash|zsh|fish` prints: a choices flag its choices (a resource field's enum included),
 * `--type` the values of that command's own --type, a file flag file names, and a free-text flag
 * nothing (never file names). bash runs the printed script; zsh's script is the same function
 * loaded through bashcompinit, so bash runs it too with zsh's loader stubbed; fish's `complete`
 * lines are read for the flag's options. The folder completion runs in holds files, so a file name
 * offered where it should not be shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../../commands/command-tree.js';
import { OPERATIONS } from '../../commands/resources/table.js';
import { runSvc, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';

const configDir = tempConfigDir();
const folder = mkdtempSync(join(tmpdir(), 'svc-completion-'));
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  for (const file of ['alpha.json', 'beta.pem', 'ACTIVE-notes.txt']) writeFileSync(join(folder, file), '');
  mkdirSync(join(folder, 'keys'));
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const result = await runSvc(['completion', shell], { configDir });
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = result.stdout;
    if (shell !== 'fish') writeFileSync(join(folder, `svc.${shell}`), result.stdout);
  }
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
});

/**
 * What the bash function offers for the last word of each line, in one bash process run in the
 * folder of files. For zsh, bashcompinit's loader is stubbed: bash then runs zsh's script as is.
 */
function offered(shell: 'bash' | 'zsh', lines: string[][]): string[][] {
  const quote = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;
  const cases = lines.map(
    (words) =>
      `COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _svc; printf '%s\\n' "\${COMPREPLY[@]}"; echo ---`,
  );
  const stubs = shell === 'zsh' ? 'autoload() { :; }; bashcompinit() { :; }; ' : '';
  const out = execFileSync('bash', ['-c', `${stubs}source ./svc.${shell}\n${cases.join('\n')}`], {
    cwd: folder,
    encoding: 'utf8',
    env: svcEnv(configDir),
  });
  return out
    .split('---\n')
    .slice(0, lines.length)
    .map((block) => block.split('\n').filter(Boolean).sort());
}

/** The fish `complete` line for a flag of a command (`customers list`), or of svc itself (path ''). */
function fishLine(path: string, flag: string): string {
  const condition = path
    .split(' ')
    .filter(Boolean)
    .map((word) => `__fish_seen_subcommand_from ${word}`)
    .join('; and ');
  const head = condition
    ? `complete -c svc -n "${condition}" -l ${flag.slice(2)}`
    : `complete -c svc -l ${flag.slice(2)}`;
  const line = scripts.fish.split('\n').find((l) => l === head || l.startsWith(`${head} `));
  if (line === undefined) throw new Error(`no fish line for ${path} ${flag}`);
  return line.slice(head.length);
}

/** The values a fish line offers (`-a '…'`), sorted. */
function fishValues(rest: string): string[] {
  const words = /-a '([^']*)'/.exec(rest)?.[1];
  return words === undefined ? [] : words.split(' ').sort();
}

const EVERY_TYPE = expect.arrayContaining(['CARD.STATE_CHANGE', 'INCOMING_PAYMENT.COMPLETED']);

describe.each(['bash', 'zsh'] as const)('%s completion of flag values', (shell) => {
  it("--type completes that command's own --type: customer types, account types, directions, event types", () => {
    const [customersList, customersCreate, internal, external, transactions, replay] = offered(shell, [
      ['svc', 'customers', 'list', '--type', ''],
      ['svc', 'customers', 'create', '--type', ''],
      ['svc', 'accounts', 'internal', 'list', '--type', ''],
      ['svc', 'accounts', 'external', 'create', '--account-type', 'USD_'],
      ['svc', 'transactions', 'list', '--type', ''],
      ['svc', 'webhook', 'replay', '--type', ''],
    ]);
    expect(customersList).toEqual(['BUSINESS', 'INDIVIDUAL']);
    expect(customersCreate).toEqual(['BUSINESS', 'INDIVIDUAL']);
    expect(internal).toEqual(['EMBEDDED_WALLET', 'INTERNAL_CRYPTO', 'INTERNAL_FIAT']);
    expect(external).toContain('USD_ACCOUNT');
    expect(transactions).toEqual(['INCOMING', 'OUTGOING']);
    expect(replay).toEqual(EVERY_TYPE);
  });

  it('an enum flag completes its values, in any case typed, and never file names', () => {
    const [state, lower, none, lockSide, sort, issuance] = offered(shell, [
      ['svc', 'cards', 'update', 'Card:x', '--state', ''],
      ['svc', 'cards', 'update', 'Card:x', '--state', 'fr'],
      ['svc', 'cards', 'update', 'Card:x', '--state', 'X'],
      ['svc', 'quotes', 'create', '--lock-side', ''],
      ['svc', 'cards', 'list', '--sort', ''],
      ['svc', 'emulator', 'start', '--card-issuance', ''],
    ]);
    expect(state).toEqual(['ACTIVE', 'CLOSED', 'FROZEN']);
    expect(lower).toEqual(['FROZEN']);
    expect(none).toEqual([]);
    expect(lockSide).toEqual(['RECEIVING', 'SENDING']);
    expect(sort).toEqual(['asc', 'desc']);
    expect(issuance).toEqual(['accept', 'reject']);
  });

  it('a file flag completes file names; a free-text flag completes nothing', () => {
    const [input, stateFile, store, key, amount, forward] = offered(shell, [
      ['svc', 'api', 'POST', '/customers', '--input', 'al'],
      ['svc', 'emulator', 'start', '--state', ''],
      ['svc', 'webhook', 'listen', '--store', 'b'],
      ['svc', 'keys', 'stamp', '--private-key-file', 'k'],
      ['svc', 'sandbox', 'fund', 'InternalAccount:x', '--amount', ''],
      ['svc', 'webhook', 'listen', '--forward-to', ''],
    ]);
    expect(input).toEqual(['alpha.json']);
    expect(stateFile).toEqual(['ACTIVE-notes.txt', 'alpha.json', 'beta.pem', 'keys', 'svc.bash', 'svc.zsh']);
    expect(store).toEqual(['beta.pem']);
    expect(key).toEqual(['keys']);
    expect(amount).toEqual([]);
    expect(forward).toEqual([]);
  });

  it("every flag declared with choices completes exactly them (the tree's own declarations)", async () => {
    const tree = await commandTree(OPERATIONS);
    const cases: { words: string[]; values: readonly string[] }[] = [];
    for (const noun of tree.nouns) {
      const entries = noun.verbs.length ? noun.verbs.filter((v) => !v.group) : [{ ...noun, name: '' }];
      for (const entry of entries) {
        const path = [noun.name, ...entry.name.split(' ').filter(Boolean)];
        for (const [flag, values] of Object.entries(entry.choices))
          cases.push({ words: ['svc', ...path, flag, ''], values });
      }
    }
    expect(cases.length).toBeGreaterThan(20);
    const results = offered(
      shell,
      cases.map((c) => c.words),
    );
    cases.forEach((c, i) => expect(results[i], c.words.join(' ')).toEqual([...c.values].sort()));
  });
});

describe('fish completion of flag values', () => {
  it("--type completes that command's own --type; event types only where it means an event type", () => {
    expect(fishValues(fishLine('customers list', '--type'))).toEqual(['BUSINESS', 'INDIVIDUAL']);
    expect(fishValues(fishLine('customers create', '--type'))).toEqual(['BUSINESS', 'INDIVIDUAL']);
    expect(fishValues(fishLine('accounts internal list', '--type'))).toEqual([
      'EMBEDDED_WALLET',
      'INTERNAL_CRYPTO',
      'INTERNAL_FIAT',
    ]);
    expect(fishValues(fishLine('transactions list', '--type'))).toEqual(['INCOMING', 'OUTGOING']);
    expect(fishValues(fishLine('webhook replay', '--type'))).toEqual(EVERY_TYPE);
    expect(fishValues(fishLine('webhook listen', '--events'))).toEqual(EVERY_TYPE);
  });

  it('enum flags take their values and no file (-x); file flags take files (-r -F); free text nothing', () => {
    expect(fishLine('cards update', '--state')).toBe(" -x -a 'ACTIVE FROZEN CLOSED'");
    expect(fishLine('quotes create', '--lock-side')).toBe(" -x -a 'SENDING RECEIVING'");
    for (const [path, flag] of [
      ['emulator start', '--state'],
      ['api', '--input'],
      ['webhook listen', '--store'],
      ['webhook verify', '--body-file'],
    ] as const)
      expect(fishLine(path, flag), `${path} ${flag}`).toBe(' -r -F');
    expect(fishLine('sandbox fund', '--amount')).toBe(' -x');
    expect(fishLine('', '--profile')).toBe(" -x -a '(svc completion --values profiles 2>/dev/null)'");
    expect(fishLine('api', '--session')).toBe(" -x -a '(svc completion --values sessions 2>/dev/null)'");
    // No value flag is left to fish's default of file names.
    const valueLines = scripts.fish.split('\n').filter((l) => / -l \S+ -/.test(l));
    expect(valueLines.filter((l) => !/ -x( |$)| -r -F$/.test(l))).toEqual([]);
  });
});
