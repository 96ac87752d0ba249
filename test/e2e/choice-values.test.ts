/**
 * One rule for every value that must be one of a few (src/choice.ts): a flag's choices and a
 * resource field's enum are taken in any case and sent as the service spells them; anything else
 * is exit 2 naming the flag, every allowed value and the nearest one, with no request sent.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

const configDir = tempConfigDir();
// A closed loopback port: --dry-run sends nothing, and a refusal comes before any request.
const BASE = ['--base-url', 'http://127.0.0.1:9/2025-10-13'];
const svc = (...args: string[]) => runSvc([...BASE, ...args], { configDir });

afterAll(() => rmSync(configDir, { recursive: true, force: true }));

describe('enum values', () => {
  it('are taken in any case and sent as the service spells them', async () => {
    const list = await svc('customers', 'list', '--type', 'individual', '--dry-run');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('/customers?customerType=INDIVIDUAL');
    const token = await svc(
      '--json',
      'tokens',
      'create',
      '--name',
      'ci',
      '--permissions',
      'view,Transact',
      '--dry-run',
    );
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toContain('"permissions":["VIEW","TRANSACT"]');
    const shell = await svc('completion', 'BASH');
    expect(shell.code).toBe(0);
    expect(shell.stdout).toContain('complete -F _svc svc');
  });

  it('are refused naming the flag, the allowed values and the nearest one', async () => {
    for (const [args, message] of [
      [
        ['cards', 'update', 'Card:x', '--state', 'frozn', '--dry-run'],
        '--state must be one of ACTIVE, FROZEN, CLOSED; got "frozn" (did you mean FROZEN?)',
      ],
      [
        ['tokens', 'create', '--name', 'ci', '--permissions', 'VIEW,transct', '--dry-run'],
        '--permissions must be one of VIEW, TRANSACT, MANAGE; got "transct" (did you mean TRANSACT?)',
      ],
      [
        ['quotes', 'create', '--lock-side', 'SENDER', '--dry-run'],
        '--lock-side must be one of SENDING, RECEIVING; got "SENDER" (did you mean SENDING?)',
      ],
      [['completion', 'bsh'], '<shell> must be one of bash, zsh, fish; got "bsh" (did you mean bash?)'],
      [['emulator', 'start', '--card-issuance', 'maybe'], '--card-issuance must be one of accept, reject; got "maybe"'],
    ] as const) {
      const result = await svc(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
