import { describe, expect, it } from 'vitest';
import { openStore, resolveEndpoint, selectProfile, type Store } from '../../../src/store/index.js';
import { UsageError } from '../../../src/errors.js';
import { useTempDirs } from '../../integration/store/temp-dirs.js';
import { caught, rejected } from '../../helpers/caught.js';

const tempDir = useTempDirs();

function storeWith(profiles: Record<string, Record<string, string>>, current?: string): Store {
  const store = openStore({ dir: tempDir() });
  for (const [name, p] of Object.entries(profiles)) store.setProfile(name, p);
  if (current) store.setCurrentProfile(current);
  return store;
}

const usageError = (promise: Promise<unknown>) => rejected(promise, UsageError);

const creds = { apiTokenId: 'ptok', apiClientSecret: 'psecret' };

/** The profile a command acts on and its endpoint, as Deps resolves them. */
async function resolveConnection(store: Store, env: NodeJS.ProcessEnv, flags: { profile?: string; baseUrl?: string }) {
  const profile = () => selectProfile(store, env, flags.profile);
  const { baseUrl, auth } = await resolveEndpoint(env, flags, profile);
  const { name, effective } = profile();
  return { profileName: name, profile: effective, baseUrl, auth };
}

describe('selectProfile and resolveEndpoint', () => {
  it('take everything from the current profile and normalize the base URL', async () => {
    const store = storeWith({ dev: { baseUrl: 'http://127.0.0.1:4010/', ...creds } }, 'dev');
    const c = await resolveConnection(store, {}, {});
    expect(c.profileName).toBe('dev');
    expect(c.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    expect(c.auth).toEqual({ kind: 'basic', tokenId: 'ptok', secret: 'psecret' });
  });

  it('order flags before environment before profile', async () => {
    const store = storeWith({
      default: { baseUrl: 'http://127.0.0.1:1', ...creds },
      other: { baseUrl: 'http://127.0.0.1:3', ...creds },
    });
    const env = { SERVICE_BASE_URL: 'http://127.0.0.1:2', SERVICE_PROFILE: 'other' };
    const url = (e: NodeJS.ProcessEnv, flags = {}) => resolveConnection(store, e, flags).then((c) => c.baseUrl);
    expect(await url(env, { baseUrl: 'http://127.0.0.1:9' })).toBe('http://127.0.0.1:9/2025-10-13');
    expect(await url(env)).toBe('http://127.0.0.1:2/2025-10-13');
    expect((await resolveConnection(store, env, {})).profileName).toBe('other');
    expect((await resolveConnection(store, env, { profile: 'default' })).profileName).toBe('default');
    expect(await url({ SERVICE_PROFILE: 'other' })).toBe('http://127.0.0.1:3/2025-10-13');
  });

  it('prefer a complete Basic pair from the environment, then an access token from it, then the profile', async () => {
    const store = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', ...creds, accessToken: 'ptoken' } });
    const auth = (e: NodeJS.ProcessEnv, s = store) => resolveConnection(s, e, {}).then((c) => c.auth);
    const envBasic = {
      SERVICE_API_TOKEN_ID: 'etok',
      SERVICE_API_CLIENT_SECRET: 'esecret',
      SERVICE_ACCESS_TOKEN: 'etoken',
    };
    expect(await auth(envBasic)).toEqual({ kind: 'basic', tokenId: 'etok', secret: 'esecret' });
    expect(await auth({ SERVICE_ACCESS_TOKEN: 'etoken' })).toEqual({ kind: 'bearer', token: 'etoken' });
    expect(await auth({ SERVICE_API_TOKEN_ID: 'etok' })).toEqual({ kind: 'basic', tokenId: 'etok', secret: 'psecret' });
    const bearerOnly = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', accessToken: 'ptoken' } });
    expect(await auth({}, bearerOnly)).toEqual({ kind: 'bearer', token: 'ptoken' });
  });

  it('never read the profile when flags and environment say everything (CI opens no store)', async () => {
    const unread = () => {
      throw new Error('the profile was read');
    };
    const base = { SERVICE_BASE_URL: 'http://127.0.0.1:4010' };
    const env = { ...base, SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 's', SERVICE_ACCESS_TOKEN: 'tok' };
    expect(await resolveEndpoint(env, {}, unread)).toEqual({
      baseUrl: 'http://127.0.0.1:4010/2025-10-13',
      auth: { kind: 'basic', tokenId: 'id', secret: 's' },
    });
    const bearer = await resolveEndpoint({ SERVICE_ACCESS_TOKEN: 'tok' }, { baseUrl: 'http://127.0.0.1:9' }, unread);
    expect(bearer).toEqual({ baseUrl: 'http://127.0.0.1:9/2025-10-13', auth: { kind: 'bearer', token: 'tok' } });
    await expect(resolveEndpoint({ ...base, SERVICE_API_TOKEN_ID: 'id' }, {}, unread)).rejects.toThrow(
      'the profile was read',
    );
  });

  it('return the profile with environment overrides, e.g. SERVICE_WEBHOOK_PUBKEY', () => {
    const store = storeWith({ default: { ...creds, webhookPublicKey: 'stored', otpSignerPublicKey: '04ab' } });
    const selected = selectProfile(store, { SERVICE_WEBHOOK_PUBKEY: 'from-env' }, undefined);
    expect(selected.effective).toMatchObject({ webhookPublicKey: 'from-env', otpSignerPublicKey: '04ab' });
    expect(selected.stored?.webhookPublicKey).toBe('stored');
  });

  // The CLI's words for these (--base-url, svc emulator start) are in test/e2e/input-errors.test.ts.
  it('name the base URL and SERVICE_BASE_URL when no base URL is known, and suggest the emulator', async () => {
    const err = await usageError(
      resolveConnection(storeWith({}), { SERVICE_API_TOKEN_ID: 't', SERVICE_API_CLIENT_SECRET: 's' }, {}),
    );
    expect(err).toMatchObject({ input: 'baseUrl', reason: 'MISSING_BASE_URL' });
    expect(err.message).toContain('No base URL for profile "default"');
    expect(err.hint).toContain('SERVICE_BASE_URL');
    expect(err.hint).toContain('start the emulator');
  });

  it('name the missing credential variables without echoing any secret', async () => {
    const err = await usageError(resolveConnection(storeWith({}), { SERVICE_BASE_URL: 'http://127.0.0.1:1' }, {}));
    expect(err.message).toContain('SERVICE_API_TOKEN_ID');
    expect(err.message).toContain('SERVICE_API_CLIENT_SECRET');
    expect(err).toMatchObject({
      input: 'SERVICE_API_TOKEN_ID, SERVICE_API_CLIENT_SECRET',
      reason: 'MISSING_CREDENTIALS',
    });
    expect(err.hint).toContain('start the emulator');
    const env = { SERVICE_BASE_URL: 'http://127.0.0.1:1', SERVICE_API_CLIENT_SECRET: 'topsecret' };
    const half = await usageError(resolveConnection(storeWith({}), env, {}));
    expect(half.message).toContain('SERVICE_API_TOKEN_ID');
    expect(half.message).not.toContain('SERVICE_API_CLIENT_SECRET');
    expect(`${half.message} ${half.hint}`).not.toContain('topsecret');
  });

  it('reject a bad base URL or profile name as usage errors naming the input', async () => {
    expect(await usageError(resolveConnection(storeWith({}), {}, { baseUrl: 'nope' }))).toMatchObject({
      input: 'baseUrl',
      reason: 'NOT_A_URL',
    });
    expect(caught(() => selectProfile(storeWith({}), {}, '../x'), UsageError).input).toBe('profile');
  });
});
