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

describe('event types, scenario names and forward targets: one rule wherever they are typed', () => {
  it('event type names in any case, a typo answered with the nearest type, in listen and replay', async () => {
    const replay = await svc('webhook', 'replay', '--type', 'card.stat_change');
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('--type: unknown event type "card.stat_change"; did you mean CARD.STATE_CHANGE?');
    const listen = await svc('webhook', 'listen', '--port', '0', '--events', 'card.stat_change');
    expect(listen.code).toBe(2);
    expect(listen.stderr).toContain('Did you mean CARD.STATE_CHANGE?');
  });

  it('--to of replay takes host:port/path as --forward-to of listen does; a non-http URL is refused by both', async () => {
    // Accepted: the request is made (to the closed port of the base URL), so the failure is not --to's.
    const hostPort = await runSvc([...BASE, 'webhook', 'replay', '--since', '1h', '--to', 'localhost:4242/webhooks'], {
      configDir,
      env: { SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 'secret' },
    });
    expect(hostPort.stderr).not.toContain('--to');
    expect(hostPort.code).not.toBe(2);
    const replay = await svc('webhook', 'replay', '--since', '1h', '--to', 'ftp://127.0.0.1/x');
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('--to must be an http or https URL or host:port/path');
    const listen = await svc('webhook', 'listen', '--port', '0', '--skip-verify', '--forward-to', 'ftp://127.0.0.1/x');
    expect(listen.code).toBe(2);
    expect(listen.stderr).toMatch(/--forward-to.*not an http\(s\) URL or host:port/);
  });

  it('trigger scenario names in any case; a typo answered with the nearest scenario', async () => {
    const help = await svc('trigger', 'KYC.Pending', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Scenario kyc.pending:');
    const typo = await svc('trigger', 'KYC.pendng');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('No scenario "KYC.pendng". Did you mean kyc.pending?');
  });
});
