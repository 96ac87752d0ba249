/**
 * A positional value that begins with '-' is a value where the command takes one: `config set
 * webhook-public-key "-----BEGIN PUBLIC KEY-----…"` stores the PEM (commander alone read it as an
 * unknown option). A word shaped like a flag is still refused as one, a missing value is still
 * named, and a negative amount is refused naming its flag.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';

const pem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('config set with a value that begins with a dash', () => {
  it('stores a PEM given inline, and config get reads it back', async () => {
    const configDir = tempConfigDir();
    const key = pem();
    const set = await runSvc(['config', 'set', 'webhook-public-key', key], { configDir });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toMatch(/unknown option/);
    const get = await runSvc(['--json', 'config', 'get', 'webhook-public-key'], { configDir });
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout).value.trim()).toBe(key.trim());
  });

  it('takes the PEM after the flags too, with --json and --profile around it', async () => {
    const configDir = tempConfigDir();
    const key = pem();
    const set = await runSvc(['config', 'set', 'webhook-public-key', key, '--json', '--profile', 'dash'], {
      configDir,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ profile: 'dash', key: 'webhook-public-key' });
  });

  it('still names a missing value', async () => {
    const r = await runSvc(['config', 'set', 'webhook-public-key']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'value'/);
  });

  it('refuses a word shaped like a flag as an unknown option, and stores nothing', async () => {
    const configDir = tempConfigDir();
    for (const args of [
      ['config', 'set', 'base-url', '--bogus'],
      ['config', 'set', 'base-url', 'http://127.0.0.1:9/v1', '--bogus'],
    ]) {
      const r = await runSvc(args, { configDir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/unknown option '--bogus'.*goes after --/);
    }
    const json = await runSvc(['--json', 'config', 'set', 'base-url', '--bogus'], { configDir });
    expect(JSON.parse(json.stderr).error).toMatchObject({ type: 'usage', field: '--bogus', code: 'unknownOption' });
    const get = await runSvc(['config', 'get', 'base-url'], { configDir });
    expect(get.code).toBe(1);
  });

  it('takes a flag-shaped word as the value after --, where the key check judges it', async () => {
    const r = await runSvc(['config', 'set', 'base-url', '--', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/base-url: Invalid base URL "--bogus"/);
  });

  it('still refuses an extra word', async () => {
    const r = await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:9/v1', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many arguments for 'set'\. Expected 2 arguments but got 3/);
  });
});

describe('a negative amount', () => {
  it.each([
    [['sandbox', 'fund', `InternalAccount:${randomUUID()}`, '--amount', '-5']],
    [['sandbox', 'fund', `InternalAccount:${randomUUID()}`, '--amount=-5']],
    [
      [
        'quotes',
        'create',
        '--source-account',
        `InternalAccount:${randomUUID()}`,
        '--dest-uma',
        '$dash.value@example.com',
        '--dest-currency',
        'USD',
        '--lock-side',
        'SENDING',
        '--amount',
        '-5',
      ],
    ],
  ])('%j is refused naming --amount and its range, before any request', async (args) => {
    const r = await runSvc(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--amount:? [Mm]ust be at least [01]; got -5/);
  });
});
