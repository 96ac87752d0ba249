/**
 * Hints that name a command: each names one that runs as written (with the values svc knows filled
 * in), and here the hint's command is run and does what it says.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import type { EmulatorReady } from '../helpers/spawned-emulator.js';

const configDir = tempConfigDir();
const emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
let ready: EmulatorReady;
beforeAll(async () => {
  ready = JSON.parse(await emulator.firstLine) as EmulatorReady;
});
afterAll(async () => {
  await emulator.stop();
  rmSync(configDir, { recursive: true, force: true });
});

const svc = (args: string[], env: NodeJS.ProcessEnv = {}) => runSvc(args, { configDir, env });

/** The `svc …` command a `Hint:` line of stderr ends with (up to a comma, or the line's end). */
function hintedCommand(stderr: string): string[] {
  const hint = /^Hint: .*$/m.exec(stderr)?.[0] ?? '';
  const command = /\bsvc ([^,\n]+?)(?:,|\.?$)/.exec(hint)?.[1];
  expect(command, `no svc command in: ${hint}`).toBeDefined();
  return command!.split(' ');
}

describe('hints that run as written', () => {
  it('auth status without a session names the credential the profile offers', async () => {
    const r = await svc(['auth', 'status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Log in: svc otp verify --credential ${ready.fixtures.credentialId}`);
    expect(r.stderr).not.toContain('<AuthMethod:id>');
  });

  it('session refresh with nothing to refresh names the credential the profile offers', async () => {
    const login = `svc otp verify --credential ${ready.fixtures.credentialId}`;
    const none = await svc(['session', 'refresh']);
    expect(none.code, none.stderr).toBe(4);
    expect(none.stderr).toContain(`Log in first: ${login}`);
    const unheld = await svc(['session', 'refresh', `Session:${randomUUID()}`]);
    expect(unheld.code, unheld.stderr).toBe(4);
    expect(unheld.stderr).toContain(`log in again: ${login}`);
    for (const r of [none, unheld]) expect(r.stderr).not.toContain('<AuthMethod:id>');
  });

  it('a credential needing the customer’s phone: the update carries the customer’s --type', async () => {
    const customer = JSON.parse(
      (
        await svc([
          '--json',
          'customers',
          'create',
          '--type',
          'BUSINESS',
          '--platform-id',
          `hint-${randomUUID()}`,
          '--legal-name',
          'Quill Works',
          '--business-country',
          'US',
          '--tax-id',
          '98-7654321',
          '--incorporated-on',
          '2019-03-04',
        ])
      ).stdout,
    ) as { id: string };
    const accounts = await svc(['--json', 'api', 'GET', `/customers/internal-accounts?customerId=${customer.id}`]);
    const wallet = (JSON.parse(accounts.stdout) as { data: { id: string; type: string }[] }).data.find(
      (a) => a.type === 'EMBEDDED_WALLET',
    );
    expect(wallet, accounts.stdout).toBeDefined();
    const add = await svc(['credentials', 'add', 'sms', '--account', wallet!.id]);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(`svc customers update ${customer.id} --type BUSINESS --phone-number `);

    const update = await svc(hintedCommand(add.stderr.replace(/, then run the command again\./, ',')));
    expect(update.code, update.stderr).toBe(0);
    const again = await svc(['credentials', 'add', 'sms', '--account', wallet!.id]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('quotes execute of a real-time-funding quote: pay it with sandbox send, quote and currency filled in', async () => {
    const quote = ready.fixtures.quoteId!;
    const r = await svc(['quotes', 'execute', quote]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`svc sandbox send --quote ${quote} --currency USD`);
    const pay = await svc(hintedCommand(r.stderr));
    expect(pay.code, pay.stderr).toBe(0);
    expect(pay.stdout).toContain(`Paid ${quote} in USD`);

    // Paid now: the hint names this quote, and a command that runs as written.
    const twice = await svc(['sandbox', 'send', '--quote', quote, '--currency', 'USD']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`svc quotes get ${quote}`);
    expect(twice.stderr).not.toContain('<Quote:id>');
  });

  it('config use with a typo suggests the nearest profile, not creating it', async () => {
    const r = await svc(['config', 'use', 'locl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "local"?');
    expect(r.stderr).toContain('Hint: Run svc config use local,');
    expect(r.stderr).not.toContain('Create it');
    const use = await svc(hintedCommand(r.stderr));
    expect(use.code, use.stderr).toBe(0);

    const del = await svc(['config', 'delete', 'locla', '--yes']);
    expect(del.stderr).toContain('Hint: Run svc config delete local,');
  });

  it('webhook verify with another key names the key of profile "local" the emulator signs with', async () => {
    const key = '02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316';
    const r = await svc(['webhook', 'verify', '--public-key', key, '--body', '{}', '--signature', 'AAAA']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pass --public-key "$(svc --profile local config get webhook-public-key)"');
    const get = await svc(['--profile', 'local', 'config', 'get', 'webhook-public-key']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout.trim()).toBe(ready.webhookPublicKey.trim());
    // The key is taken as --public-key's value (a PEM starts with dashes), and is the one of profile "local".
    const again = await svc(['webhook', 'verify', '--public-key', get.stdout, '--body', '{}', '--signature', 'AAAA']);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain('does not verify');
    expect(again.stderr).not.toContain('profile "local"');
  });

  it('webhook verify without any key names the config key that stores one', async () => {
    const bare = tempConfigDir();
    try {
      const r = await runSvc(['webhook', 'verify', '--body', '{}', '--signature', 'AAAA'], { configDir: bare });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('svc config set webhook-public-key <hex|@file>');
      const pem = join(bare, 'webhook.pem');
      writeFileSync(pem, ready.webhookPublicKey);
      const set = await runSvc(['config', 'set', 'webhook-public-key', `@${pem}`], { configDir: bare });
      expect(set.code, set.stderr).toBe(0);
      const verify = await runSvc(['webhook', 'verify', '--body', '{}', '--signature', 'AAAA'], { configDir: bare });
      expect(verify.stderr).toContain('does not verify');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
