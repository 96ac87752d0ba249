/**
 * `svc config set/get/list/use` through run(): values are checked before they are stored, secrets
 * never come back in full (not from set, get, list or --json), and the store stays 0600.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { SvcError, UsageError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { generateWebhookKeyPair } from '../../../src/crypto/webhook-signature.js';
import { run as set } from '../../../commands/config/set.js';
import { run as get } from '../../../commands/config/get.js';
import { run as list } from '../../../commands/config/list.js';
import { run as use } from '../../../commands/config/use.js';
import { CONFIG_KEYS } from '../../../commands/config/keys.js';
import { CONFIG_KEY_NAMES } from '../../../commands/config/key-names.js';
import { saveEmulatorProfile } from '../../../commands/config/local-profile.js';
import { tempDir } from '../../helpers/temp-dir.js';

const SECRET = 'sk_sandbox_9f8e7d6c5b4a39281706';
let dir: string;
const deps = (o: FakeDepsOptions = {}) => fakeDeps({ ...o, env: { SERVICE_CLI_CONFIG_DIR: dir, ...o.env } });

beforeEach(() => {
  dir = tempDir('svc-config-');
});

describe('config set/get', () => {
  it('stores a base URL normalised and reads it back', async () => {
    await set({ key: 'base-url', value: 'http://127.0.0.1:4010/' }, deps());
    const d = deps();
    await get({ key: 'base-url' }, d);
    expect(d.stdout()).toBe('http://127.0.0.1:4010/2025-10-13\n');
  });

  it('reads a secret from stdin with "-", never echoes it, and get shows it masked', async () => {
    const s = deps({ stdin: `${SECRET}\n` });
    await set({ key: 'api-client-secret', value: '-' }, s);
    expect(s.stdout() + s.stderr()).not.toContain(SECRET);
    expect(openStore({ dir }).getProfile('default')?.apiClientSecret).toBe(SECRET);

    const g = deps({ globals: { json: true } });
    await get({ key: 'api-client-secret' }, g);
    expect(JSON.parse(g.stdout())).toEqual({
      profile: 'default',
      key: 'api-client-secret',
      value: '****1706',
      masked: true,
    });
  });

  it('prompts for a secret on a terminal (masked prompt) instead of reading stdin', async () => {
    const d = deps({ tty: true, answers: [SECRET] });
    await set({ key: 'api-client-secret', value: '-' }, d);
    expect(d.asked).toEqual(['api-client-secret:']);
    expect(d.stdout() + d.stderr()).not.toContain(SECRET);
  });

  it('warns when a secret is typed on the command line, still without echoing it', async () => {
    const d = deps();
    await set({ key: 'api-client-secret', value: SECRET }, d);
    expect(d.stderr()).toContain('shell history');
    expect(d.stdout() + d.stderr()).not.toContain(SECRET);
  });

  it('writes to --profile and leaves the current profile alone', async () => {
    await set({ key: 'api-token-id', value: 'tok_1' }, deps({ globals: { profile: 'staging' } }));
    const store = openStore({ dir });
    expect(store.getProfile('staging')?.apiTokenId).toBe('tok_1');
    expect(store.currentProfileName()).toBe('default');
  });

  it('stores the OTP signer uncompressed whatever form was given', async () => {
    const { publicKey } = generateKeyPair();
    await set({ key: 'otp-signer', value: publicKey }, deps());
    const stored = openStore({ dir }).getProfile('default')?.otpSignerPublicKey;
    expect(stored).toMatch(/^04[0-9a-f]{128}$/);
    expect(stored!.slice(2, 66)).toBe(publicKey.slice(2).toLowerCase());
  });

  it('accepts a webhook public key from a PEM file (@path)', async () => {
    const { publicKeyPem } = generateWebhookKeyPair();
    const file = join(dir, 'hook.pem');
    (await import('node:fs')).writeFileSync(file, publicKeyPem);
    await set({ key: 'webhook-public-key', value: `@${file}` }, deps());
    expect(openStore({ dir }).getProfile('default')?.webhookPublicKey).toBe(publicKeyPem.trim());
  });

  it.each([
    ['base-url', 'ftp://example.com'],
    ['base-url', 'not a url'],
    ['api-token-id', 'has:colon'],
    ['api-token-id', 'has space'],
    ['otp-signer', '04abcd'],
    ['webhook-public-key', 'not a key'],
    ['colour', 'blue'],
  ])('rejects %s = %j with exit-2 UsageError and stores nothing', async (key, value) => {
    await expect(set({ key, value }, deps())).rejects.toBeInstanceOf(UsageError);
    expect(openStore({ dir }).listProfiles()).toEqual({});
  });

  it("a bad otp-signer points at the service's published key, not at generating one", async () => {
    const error = (await set({ key: 'otp-signer', value: '04abcd' }, deps()).catch((e: unknown) => e)) as UsageError;
    expect(error).toMatchObject({ input: 'otp-signer' });
    expect(error.hint).toMatch(/otpSignerPublicKey/);
    expect(error.hint).not.toMatch(/keys generate/);
  });

  it('a bad base URL or webhook key keeps the fix its check suggests, named after the config key', async () => {
    const credentials = (await set({ key: 'base-url', value: 'http://user:pw@127.0.0.1:4010' }, deps()).catch(
      (e: unknown) => e,
    )) as UsageError;
    expect(credentials).toMatchObject({ input: 'base-url', hint: expect.stringMatching(/SERVICE_API_TOKEN_ID/) });
    const key = (await set({ key: 'webhook-public-key', value: 'not a key' }, deps()).catch(
      (e: unknown) => e,
    )) as UsageError;
    expect(key).toMatchObject({ input: 'webhook-public-key', hint: expect.stringMatching(/SPKI PEM/) });
  });

  it('get of an unset key is an exit-1 error with a hint, not an empty line', async () => {
    const error = await get({ key: 'api-token-id' }, deps()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as SvcError).hint).toContain('svc config set api-token-id');
  });
});

describe('config list/use', () => {
  it('lists profiles with the current one marked and secrets masked, in text and JSON', async () => {
    await set({ key: 'api-client-secret', value: '-' }, deps({ stdin: SECRET }));
    await set({ key: 'base-url', value: 'http://127.0.0.1:4010' }, deps({ globals: { profile: 'other' } }));
    const text = deps();
    await list({}, text);
    expect(text.stdout()).toContain('* default (current)');
    expect(text.stdout()).toMatch(/^ {2}other$/m);
    expect(text.stdout()).toContain('api-client-secret  ****1706');
    expect(text.stdout()).not.toContain(SECRET);

    const json = deps({ globals: { json: true } });
    await list({}, json);
    const doc = JSON.parse(json.stdout());
    expect(doc.current).toBe('default');
    expect(doc.profiles).toEqual([
      { name: 'default', current: true, values: { 'api-client-secret': '****1706' } },
      { name: 'other', current: false, values: { 'base-url': 'http://127.0.0.1:4010/2025-10-13' } },
    ]);
  });

  it('use switches the current profile, and refuses an unknown name', async () => {
    await set({ key: 'api-token-id', value: 'tok' }, deps({ globals: { profile: 'prod' } }));
    await use({ profile: 'prod' }, deps());
    expect(openStore({ dir }).currentProfileName()).toBe('prod');
    await expect(use({ profile: 'prdo' }, deps())).rejects.toMatchObject({
      input: '<profile>',
      message: expect.stringContaining('prod'),
    });
    await expect(use({ profile: '../etc' }, deps())).rejects.toBeInstanceOf(UsageError);
  });

  it('keeps the store folder 0700 and every file 0600', async () => {
    await set({ key: 'api-client-secret', value: '-' }, deps({ stdin: SECRET }));
    if (process.platform === 'win32') return;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  });
});

describe('saveEmulatorProfile', () => {
  it('writes the local profile (with the credential otp verify offers), makes it current and drops a stale session pointer', () => {
    const store = openStore({ dir });
    store.setProfile('local', { activeSessionId: 'Session:old', accessToken: 'stale' });
    const emu = {
      baseUrl: 'http://127.0.0.1:4999/2025-10-13',
      apiTokenId: 'tok',
      apiClientSecret: SECRET,
      otpSignerPublicKey: '04ab',
      webhookPublicKey: 'PEM',
      fixtures: { credentialId: 'AuthMethod:fixture' },
    };
    saveEmulatorProfile(store, emu);
    expect(store.currentProfileName()).toBe('local');
    const { otpSignerPublicKey, fixtures, ...connection } = emu;
    expect(store.getProfile('local')).toEqual({
      ...connection,
      otpSigners: { [emu.baseUrl]: otpSignerPublicKey },
      credentialId: fixtures.credentialId,
    });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).currentProfile).toBe('local');
  });
});

it('help names and checked keys are the same list', () => {
  expect(CONFIG_KEYS.map((k) => k.name)).toEqual([...CONFIG_KEY_NAMES]);
});
