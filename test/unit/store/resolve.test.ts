import { describe, expect, it } from 'vitest';
import { openStore, resolveConnection, resolveFromEnvironment, type Store } from '../../../src/store/index.js';
import { UsageError } from '../../../src/errors.js';
import { useTempDirs } from '../../integration/store/temp-dirs.js';
import { caught } from '../../helpers/caught.js';

const tempDir = useTempDirs();

function storeWith(profiles: Record<string, Record<string, string>>, current?: string): Store {
  const store = openStore({ dir: tempDir() });
  for (const [name, p] of Object.entries(profiles)) store.setProfile(name, p);
  if (current) store.setCurrentProfile(current);
  return store;
}

const usageError = (fn: () => unknown) => caught(fn, UsageError);

const creds = { apiTokenId: 'ptok', apiClientSecret: 'psecret' };

describe('resolveConnection', () => {
  it('takes everything from the current profile and normalizes the base URL', () => {
    const store = storeWith({ dev: { baseUrl: 'http://127.0.0.1:4010/', ...creds } }, 'dev');
    const c = resolveConnection(store, {}, {});
    expect(c.profileName).toBe('dev');
    expect(c.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    expect(c.auth).toEqual({ kind: 'basic', tokenId: 'ptok', secret: 'psecret' });
  });

  it('orders flags before environment before profile', () => {
    const store = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', ...creds }, other: { baseUrl: 'http://127.0.0.1:3', ...creds } });
    const env = { SERVICE_BASE_URL: 'http://127.0.0.1:2', SERVICE_PROFILE: 'other' };
    expect(resolveConnection(store, env, { baseUrl: 'http://127.0.0.1:9' }).baseUrl).toBe('http://127.0.0.1:9/2025-10-13');
    expect(resolveConnection(store, env, {}).baseUrl).toBe('http://127.0.0.1:2/2025-10-13');
    expect(resolveConnection(store, env, {}).profileName).toBe('other');
    expect(resolveConnection(store, env, { profile: 'default' }).profileName).toBe('default');
    expect(resolveConnection(store, { SERVICE_PROFILE: 'other' }, {}).baseUrl).toBe('http://127.0.0.1:3/2025-10-13');
  });

  it('prefers a complete Basic pair from the environment, then an access token from it, then the profile', () => {
    const store = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', ...creds, accessToken: 'ptoken' } });
    const envBasic = { SERVICE_API_TOKEN_ID: 'etok', SERVICE_API_CLIENT_SECRET: 'esecret', SERVICE_ACCESS_TOKEN: 'etoken' };
    expect(resolveConnection(store, envBasic, {}).auth).toEqual({ kind: 'basic', tokenId: 'etok', secret: 'esecret' });
    expect(resolveConnection(store, { SERVICE_ACCESS_TOKEN: 'etoken' }, {}).auth).toEqual({ kind: 'bearer', token: 'etoken' });
    expect(resolveConnection(store, { SERVICE_API_TOKEN_ID: 'etok' }, {}).auth).toEqual({ kind: 'basic', tokenId: 'etok', secret: 'psecret' });
    const bearerOnly = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', accessToken: 'ptoken' } });
    expect(resolveConnection(bearerOnly, {}, {}).auth).toEqual({ kind: 'bearer', token: 'ptoken' });
  });

  it('returns the profile with environment overrides, e.g. SERVICE_WEBHOOK_PUBKEY', () => {
    const store = storeWith({ default: { baseUrl: 'http://127.0.0.1:1', ...creds, webhookPublicKey: 'stored', otpSignerPublicKey: '04ab' } });
    const c = resolveConnection(store, { SERVICE_WEBHOOK_PUBKEY: 'from-env' }, {});
    expect(c.profile).toMatchObject({ webhookPublicKey: 'from-env', otpSignerPublicKey: '04ab', baseUrl: c.baseUrl });
    expect(store.getProfile('default')?.webhookPublicKey).toBe('stored');
  });

  it('names --base-url and SERVICE_BASE_URL when no base URL is known, and suggests the emulator', () => {
    const err = usageError(() => resolveConnection(storeWith({}), { SERVICE_API_TOKEN_ID: 't', SERVICE_API_CLIENT_SECRET: 's' }, {}));
    expect(err.field).toBe('baseUrl');
    expect(err.message).toContain('--base-url');
    expect(err.message).toContain('SERVICE_BASE_URL');
    expect(err.hint).toContain('svc emulator start');
    expect(err.hint).toContain('svc config set');
  });

  it('names the missing credential variables without echoing any secret', () => {
    const err = usageError(() => resolveConnection(storeWith({}), { SERVICE_BASE_URL: 'http://127.0.0.1:1' }, {}));
    expect(err.message).toContain('SERVICE_API_TOKEN_ID');
    expect(err.message).toContain('SERVICE_API_CLIENT_SECRET');
    expect(err.hint).toContain('svc emulator start');
    const half = usageError(() =>
      resolveConnection(storeWith({}), { SERVICE_BASE_URL: 'http://127.0.0.1:1', SERVICE_API_CLIENT_SECRET: 'topsecret' }, {}),
    );
    expect(half.message).toContain('SERVICE_API_TOKEN_ID');
    expect(half.message).not.toContain('SERVICE_API_CLIENT_SECRET');
    expect(`${half.message} ${half.hint}`).not.toContain('topsecret');
  });

  it('rejects a bad base URL or profile name as usage errors', () => {
    expect(usageError(() => resolveConnection(storeWith({}), {}, { baseUrl: 'nope' })).field).toBe('baseUrl');
    expect(usageError(() => resolveConnection(storeWith({}), {}, { profile: '../x' })).field).toBe('profile');
  });
});

describe('resolveFromEnvironment', () => {
  const base = { SERVICE_BASE_URL: 'http://127.0.0.1:4010' };
  it('answers only when flags and environment leave nothing for a profile to supply', () => {
    expect(resolveFromEnvironment({ ...base, SERVICE_API_TOKEN_ID: 'id' }, {})).toBeUndefined();
    expect(resolveFromEnvironment({ SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 's' }, {})).toBeUndefined();
    expect(resolveFromEnvironment({ ...base, SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 's' }, {})).toEqual({
      baseUrl: 'http://127.0.0.1:4010/2025-10-13',
      auth: { kind: 'basic', tokenId: 'id', secret: 's' },
    });
  });

  it('agrees with resolveConnection: a complete Basic pair wins over a bearer token, a flag over the environment', () => {
    const env = { ...base, SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 's', SERVICE_ACCESS_TOKEN: 'tok' };
    expect(resolveFromEnvironment(env, {})?.auth).toEqual({ kind: 'basic', tokenId: 'id', secret: 's' });
    expect(resolveFromEnvironment({ ...base, SERVICE_ACCESS_TOKEN: 'tok' }, {})?.auth).toEqual({ kind: 'bearer', token: 'tok' });
    expect(resolveFromEnvironment({ SERVICE_ACCESS_TOKEN: 'tok' }, { baseUrl: 'http://127.0.0.1:9/2025-10-13' })?.baseUrl).toBe('http://127.0.0.1:9/2025-10-13');
  });
});
