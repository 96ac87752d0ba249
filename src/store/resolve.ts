/**
 * Which profile a command acts on, and where its base URL and credentials come from: flags, then
 * environment, then the profile (README "Configuration"). One implementation of that order for
 * every command; the profile is read only when flags and environment leave something unsaid, so a
 * command with everything in the environment (CI) never opens the store. Missing pieces are usage
 * errors naming the flag or variable to set, raised before any request is sent.
 */
import { UsageError } from '../errors.js';
import { normalizeBaseUrl } from '../http/base-url.js';
import type { Auth } from '../http/types.js';
import { validateProfileName } from './names.js';
import type { Profile, Store } from './types.js';

/** The profile a command acts on: its name, what is stored, and that with environment overrides applied. */
export interface SelectedProfile {
  name: string;
  stored: Profile | undefined;
  /** What commands should read (patch the store only with fields you change). */
  effective: Profile;
}

/** Where and as whom to connect. */
export interface Endpoint {
  baseUrl: string;
  auth: Auth;
}

/** For a library caller; the CLI names its commands instead (commands/error-hints.ts, by reason). */
const SANDBOX_HINT = 'For a local sandbox, start the emulator and use the baseUrl and token it prints.';

function env(e: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = e[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** The profile a command acts on: the one asked for, then SERVICE_PROFILE, then the store's current profile. */
export function selectProfileName(
  store: Pick<Store, 'currentProfileName'>,
  e: NodeJS.ProcessEnv,
  flagProfile: string | undefined,
): string {
  return validateProfileName(flagProfile ?? env(e, 'SERVICE_PROFILE') ?? store.currentProfileName());
}

/** That profile (selectProfileName) as stored, and with the environment's overrides applied. */
export function selectProfile(
  store: Pick<Store, 'currentProfileName' | 'getProfile'>,
  e: NodeJS.ProcessEnv,
  flagProfile: string | undefined,
): SelectedProfile {
  const name = selectProfileName(store, e, flagProfile);
  const stored = store.getProfile(name);
  const overrides: Partial<Profile> = {
    baseUrl: env(e, 'SERVICE_BASE_URL'),
    apiTokenId: env(e, 'SERVICE_API_TOKEN_ID'),
    apiClientSecret: env(e, 'SERVICE_API_CLIENT_SECRET'),
    accessToken: env(e, 'SERVICE_ACCESS_TOKEN'),
    webhookPublicKey: env(e, 'SERVICE_WEBHOOK_PUBKEY'),
  };
  const effective: Profile = { ...stored };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) (effective as Record<string, unknown>)[k] = v;
  return { name, stored, effective };
}

/**
 * Basic when both token id and secret are known, preferring a complete pair from the environment;
 * a bearer token from the environment wins over a stored Basic pair (the user set it on purpose).
 * Undefined when the environment alone does not decide and no profile was given.
 */
function authFrom(e: NodeJS.ProcessEnv, profile: SelectedProfile | undefined): Auth | undefined {
  const envId = env(e, 'SERVICE_API_TOKEN_ID');
  const envSecret = env(e, 'SERVICE_API_CLIENT_SECRET');
  if (envId && envSecret) return { kind: 'basic', tokenId: envId, secret: envSecret };
  const envBearer = env(e, 'SERVICE_ACCESS_TOKEN');
  if (envBearer) return { kind: 'bearer', token: envBearer };
  if (!profile) return undefined;
  const tokenId = envId ?? profile.stored?.apiTokenId;
  const secret = envSecret ?? profile.stored?.apiClientSecret;
  if (tokenId && secret) return { kind: 'basic', tokenId, secret };
  if (profile.stored?.accessToken) return { kind: 'bearer', token: profile.stored.accessToken };
  const missing = [!tokenId && 'SERVICE_API_TOKEN_ID', !secret && 'SERVICE_API_CLIENT_SECRET']
    .filter(Boolean)
    .join(' and ');
  throw new UsageError(
    `No API credentials for profile "${profile.name}": set ${missing} (or SERVICE_ACCESS_TOKEN for bearer auth)`,
    { input: missing.replace(' and ', ', '), reason: 'MISSING_CREDENTIALS', hint: SANDBOX_HINT },
  );
}

/**
 * Base URL and auth: flags, then environment (SERVICE_BASE_URL, SERVICE_API_TOKEN_ID,
 * SERVICE_API_CLIENT_SECRET, SERVICE_ACCESS_TOKEN), then the profile, which `profile()` supplies
 * only when asked. A missing piece is a UsageError naming the flag or variable to set.
 */
export async function resolveEndpoint(
  e: NodeJS.ProcessEnv,
  flags: { baseUrl?: string },
  profile: () => SelectedProfile | Promise<SelectedProfile>,
): Promise<Endpoint> {
  const fromFlags = flags.baseUrl ?? env(e, 'SERVICE_BASE_URL');
  const fromEnv = authFrom(e, undefined);
  if (fromFlags !== undefined && fromEnv !== undefined) return { baseUrl: normalizeBaseUrl(fromFlags), auth: fromEnv };
  const selected = await profile();
  const rawBaseUrl = fromFlags ?? selected.stored?.baseUrl;
  if (!rawBaseUrl) {
    throw new UsageError(`No base URL for profile "${selected.name}"`, {
      input: 'baseUrl',
      reason: 'MISSING_BASE_URL',
      hint: `Set SERVICE_BASE_URL or the profile's baseUrl. ${SANDBOX_HINT}`,
    });
  }
  const baseUrl = normalizeBaseUrl(rawBaseUrl);
  return { baseUrl, auth: fromEnv ?? authFrom(e, selected)! };
}
