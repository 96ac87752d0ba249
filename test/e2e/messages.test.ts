/**
 * Messages as a user sees them (a spawned svc against an emulator): hints that fit the error,
 * uma-receive's two lines agreeing, a scenario's own --help, prune saying "expired", one style of
 * error, articles and plurals, trigger --list fitting COLUMNS, root --help examples, --verbose
 * with the query, and the shell-history warning of keys stamp --private-key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = {
    SERVICE_BASE_URL: emu.baseUrl,
    SERVICE_API_TOKEN_ID: emu.apiTokenId,
    SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
  };
});
afterAll(() => emu.close());

const svc = (args: string[], extra: { env?: NodeJS.ProcessEnv; configDir?: string } = {}) =>
  runSvc(args, { env: { ...env, ...extra.env }, configDir: extra.configDir });

describe('hints that fit the error', () => {
  it('an unknown path and a wrong base URL are a route to check, not an identifier', async () => {
    const path = await svc(['api', 'GET', '/nope']);
    expect(path.code).toBe(1);
    expect(path.stderr).toContain('Hint: The service has no route for GET /nope: check the path');
    expect(path.stderr).not.toContain('Check the identifier');

    const base = await svc(['api', 'GET', '/customers'], {
      env: { SERVICE_BASE_URL: `${new URL(emu.baseUrl).origin}/v1` },
    });
    expect(base.code).toBe(1);
    expect(base.stderr).toContain('and the base URL');
    expect(base.stderr).not.toContain('Check the identifier');

    // A missing resource keeps the identifier hint.
    const quote = await svc(['api', 'GET', '/quotes/Quote:00000000-0000-4000-8000-000000000000']);
    expect(quote.stderr).toContain('Check the identifier');
  });

  it('an already paid quote points at the quote, not at fields to fix', async () => {
    const pay = ['sandbox', 'send', '--quote', emu.fixtures.quoteId, '--currency', 'USD'];
    expect((await svc(pay)).code).toBe(0);
    const again = await svc(pay);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already paid');
    expect(again.stderr).toContain('Hint: This quote cannot be used as it stands');
    expect(again.stderr).toContain('svc quotes create');
    expect(again.stderr).not.toContain('Fix the fields above');
  });

  it('a second delegated key for a card is 409 with the command that revokes the active one', async () => {
    const configDir = tempConfigDir();
    const login = await svc(['otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'], {
      configDir,
    });
    expect(login.code, login.stderr).toBe(0);
    const create = (nickname: string) =>
      svc(
        [
          'auth',
          'delegated-keys',
          'create',
          '--card-id',
          emu.fixtures.cardId,
          '--internal-account-id',
          emu.fixtures.accountId,
          '--nickname',
          nickname,
        ],
        { configDir },
      );
    const first = await create('first');
    expect(first.code, first.stderr).toBe(0);
    const active = (JSON.parse(first.stdout) as { id: string }).id;
    const second = await create('second');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('CONFLICT (HTTP 409)');
    expect(second.stderr).toContain(
      `Hint: A card funding source has one ACTIVE delegated key at a time: revoke it first (svc auth delegated-keys revoke ${active})`,
    );
  });

  it('credentials verify without --wallet-signature prints the challenge and names the key that signs it, not the session', async () => {
    const configDir = tempConfigDir();
    const credential = emu.fixtures.credentialId;
    // A session is active, but the challenge is the credential's: signed with the session's key,
    // the service would refuse it.
    expect((await svc(['otp', 'verify', '--credential', credential, '--code', '000000'], { configDir })).code).toBe(0);
    const challenged = await svc(['--json', 'auth', 'credentials', 'challenge', credential], { configDir });
    const bundle = (JSON.parse(challenged.stdout) as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle;
    const sealed = await svc([
      '--json',
      'keys',
      'encrypt-otp',
      '--bundle',
      bundle,
      '--code',
      '000000',
      '--signer',
      emu.otpSignerPublicKey,
    ]);
    const { encryptedOtpBundle, tekPrivateKey } = JSON.parse(sealed.stdout) as Record<string, string>;
    const verify = [
      'auth',
      'credentials',
      'verify',
      credential,
      '--type',
      'EMAIL_OTP',
      '--encrypted-otp-bundle',
      encryptedOtpBundle!,
    ];

    const stopped = await svc(verify, { configDir });
    expect(stopped.code).toBe(4);
    const challenge = JSON.parse(stopped.stdout) as { payloadToSign: string; requestId: string };
    expect(stopped.stderr).toContain(
      'the challenge printed on stdout is to be signed by the TEK sealed in the OTP bundle (the tekPrivateKey of svc keys encrypt-otp), not by a session',
    );
    expect(stopped.stderr).toContain(`--wallet-signature <stamp> --request-id ${challenge.requestId}`);
    expect(stopped.stderr).not.toMatch(/Re-authenticate|API credentials|does not recognise this session/);

    const keyFile = join(configDir, 'tek.hex');
    writeFileSync(keyFile, tekPrivateKey!);
    const stamp = await svc(['keys', 'stamp', '--private-key-file', keyFile, '--payload', challenge.payloadToSign]);
    const done = await svc(
      ['--json', ...verify, '--wallet-signature', stamp.stdout.trim(), '--request-id', challenge.requestId],
      { configDir },
    );
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: expect.stringMatching(/^Session:/) });
  });

  it("a missing phone number names the command that sets the customer's, with its id", async () => {
    const customer = await svc([
      '--json',
      'api',
      'POST',
      '/customers',
      '-f',
      'customerType=INDIVIDUAL',
      '-f',
      'fullName=No Phone',
    ]);
    const customerId = JSON.parse(customer.stdout).id as string;
    const accounts = await svc([
      '--json',
      'api',
      'GET',
      '/customers/internal-accounts',
      '--query',
      `customerId=${customerId}`,
    ]);
    const accountId = JSON.parse(accounts.stdout).data[0].id as string;
    const r = await svc(['credentials', 'add', 'sms', '--account', accountId]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Adding an SMS_OTP credential');
    expect(r.stderr).toContain(`Hint: Set the customer's phoneNumber first`);
    expect(r.stderr).toContain(`svc customers update ${customerId} --type INDIVIDUAL --phone-number`);
    expect(r.stderr).not.toContain('Fix the fields above');
  });
});

it('uma-receive: the amount on stdout and the magic address note on stderr name the same currencies', async () => {
  const r = await svc([
    'sandbox',
    'uma-receive',
    '--sender',
    '$success.usd@sandbox.example.com',
    '--receiver',
    emu.fixtures.umaAddress,
    '--currency',
    'EUR',
    '--amount',
    '1000',
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/10\.00 EUR \(sent as [\d.,]+ USD\)/);
  expect(r.stderr).toContain('its scenario pays in USD, converted to the EUR received (--currency EUR)');
  expect(r.stderr).not.toContain('a payment in USD');
});

it("trigger <scenario> --help lists that scenario's settable paths and what it reuses", async () => {
  const r = await svc(['trigger', 'quote.long', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Scenario quote.long: sends');
  expect(r.stdout).toMatch(/externalAccount\.accountInfo\.accountNumber\s+text \(carries the magic value/);
  expect(r.stdout).toMatch(/quote\.lockedCurrencyAmount\s+amount in the smallest unit/);
  expect(r.stdout).toMatch(/reuses\s+--customer/);
  const plain = await svc(['trigger', '--help']);
  expect(plain.stdout).not.toContain('Scenario ');
});

it("session prune says a session expired when it did on the service's clock", async () => {
  const configDir = tempConfigDir();
  const login = await svc(['--json', 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'], {
    configDir,
  });
  expect(login.code, login.stderr).toBe(0);
  const { id } = JSON.parse(login.stdout) as { id: string };
  emu.testing.advanceClock(16 * 60_000); // past the 15-minute session, on the emulator's clock only
  const r = await svc(['session', 'prune'], { configDir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`deleted  ${id}  expired .+ ago on the service's clock`));
  expect(r.stdout).not.toContain('revoked');
});

it("commander's parse errors read as svc's own: Error: and Hint: lines", async () => {
  const option = await svc(['session', 'list', '--bogus']);
  expect(option.code).toBe(2);
  expect(option.stderr).toBe("Error: unknown option '--bogus'\nHint: run the command with --help for usage.\n");
  const command = await svc(['sesion']);
  expect(command.stderr).toContain("Error: unknown command 'sesion'\nHint: did you mean session?");
  expect(command.stderr).not.toMatch(/^error:|\(Did you mean/m);
  const json = await svc(['--json', 'sesion']);
  expect(JSON.parse(json.stderr).error).toMatchObject({
    message: "unknown command 'sesion'",
    hint: 'Did you mean session? Run with --help for usage.',
  });
});

it('trigger --list fits COLUMNS and keeps every magic value whole', async () => {
  const r = await svc(['trigger', '--list'], { env: { COLUMNS: '50' } });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(50);
  expect(r.stdout).toContain('accountInfo.accountNumber=1234567010');
  // Without COLUMNS off a terminal: one line a scenario, for grep.
  const wide = await svc(['trigger', '--list']);
  expect(wide.stdout).toMatch(/transfer\.success +accountInfo\.accountNumber=1234567010 +→ status COMPLETED/);
});

it('the root --help ends with examples', async () => {
  const r = await svc(['--help']);
  expect(r.stdout).toMatch(/Examples:\n {2}\$ svc emulator start --detach\n/);
  expect(r.stdout).toContain("$ svc --json customers list --jq '.data[].id'");
});

it('--verbose logs the query string', async () => {
  const r = await svc(['--verbose', 'api', 'GET', '/customers', '--query', 'limit=1']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/→ GET \/customers\?limit=1 200 \(\d+ ms\)/);
});

it('keys stamp --private-key warns that the key is in the shell history; --private-key-file does not', async () => {
  const key = '487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c';
  const flag = await svc(['keys', 'stamp', '--private-key', key, '--payload', 'hello']);
  expect(flag.code).toBe(0);
  expect(flag.stderr).toContain('Warning: --private-key given on the command line is now in your shell history');
  expect(flag.stderr).toContain('--private-key-file <path>');
  expect(flag.stderr).not.toContain(key);
  const file = join(tempConfigDir(), 'session.key');
  writeFileSync(file, key, { mode: 0o600 });
  const fromFile = await svc(['keys', 'stamp', '--private-key-file', file, '--payload', 'hello']);
  expect(fromFile.code).toBe(0);
  expect(fromFile.stderr).toBe('');
  expect(fromFile.stdout).toBe(flag.stdout);
});
