/**
 * Where a command's base URL and credentials come from: flags, then environment, then the profile
 * (DESIGN.md "Conventions"). Missing pieces are usage errors that name the flag or variable to set,
 * raised before any request is sent.
 */
import { UsageError } from '../errors.js';
import { normalizeBaseUrl } from '../http/base-url.js';
import type { Auth } from '../http/client.js';
import { validateProfileName } from './names.js';
import type { Profile, Store } from './types.js';

/** Where and as whom to connect: the profile used, its effective settings, the versioned base URL and the auth. */
export interface ResolvedConnection { profileName: string; profile: Profile; baseUrl: string; auth: Auth }

const SANDBOX_HINT = 'For a local sandbox, run `svc emulator start` and use the baseUrl and token it prints; to keep settings, use `svc config set`.';

function env(e: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = e[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** The profile with environment overrides applied (what commands should read; patch only fields you change). */
function effectiveProfile(stored: Profile | undefined, e: NodeJS.ProcessEnv): Profile {
  const overrides: Partial<Profile> = {
    baseUrl: env(e, 'SERVICE_BASE_URL'),
    apiTokenId: env(e, 'SERVICE_API_TOKEN_ID'),
    apiClientSecret: env(e, 'SERVICE_API_CLIENT_SECRET'),
    accessToken: env(e, 'SERVICE_ACCESS_TOKEN'),
    webhookPublicKey: env(e, 'SERVICE_WEBHOOK_PUBKEY'),
  };
  const profile: Profile = { ...stored };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) (profile as Record<string, string>)[k] = v;
  return profile;
}

/**
 * Basic when both token id and secret are known, preferring a complete pair from the environment;
 * a bearer token from the environment wins over a stored Basic pair (the user set it on purpose).
 */
function resolveAuth(stored: Profile | undefined, e: NodeJS.ProcessEnv, profileName: string): Auth {
  const envId = env(e, 'SERVICE_API_TOKEN_ID');
  const envSecret = env(e, 'SERVICE_API_CLIENT_SECRET');
  if (envId && envSecret) return { kind: 'basic', tokenId: envId, secret: envSecret };
  const envBearer = env(e, 'SERVICE_ACCESS_TOKEN');
  if (envBearer) return { kind: 'bearer', token: envBearer };
  const tokenId = envId ?? stored?.apiTokenId;
  const secret = envSecret ?? stored?.apiClientSecret;
  if (tokenId && secret) return { kind: 'basic', tokenId, secret };
  if (stored?.accessToken) return { kind: 'bearer', token: stored.accessToken };
  const missing = [!tokenId && 'SERVICE_API_TOKEN_ID', !secret && 'SERVICE_API_CLIENT_SECRET'].filter(Boolean).join(' and ');
  throw new UsageError(`No API credentials for profile "${profileName}": set ${missing} (or SERVICE_ACCESS_TOKEN for bearer auth)`, {
    field: 'auth',
    hint: SANDBOX_HINT,
  });
}

/**
 * baseUrl and auth from flags and environment alone, or undefined when the profile would have to
 * supply something. Under the precedence below the profile cannot change an answer given here, so a
 * command that needs only the API client can skip opening the store (and loading conf) in CI.
 */
export function resolveFromEnvironment(e: NodeJS.ProcessEnv, flags: { baseUrl?: string }): { baseUrl: string; auth: Auth } | undefined {
  const rawBaseUrl = flags.baseUrl ?? env(e, 'SERVICE_BASE_URL');
  if (!rawBaseUrl) return undefined;
  const envId = env(e, 'SERVICE_API_TOKEN_ID');
  const envSecret = env(e, 'SERVICE_API_CLIENT_SECRET');
  const envBearer = env(e, 'SERVICE_ACCESS_TOKEN');
  if (!(envId && envSecret) && !envBearer) return undefined;
  // The same rule as resolveAuth: a complete Basic pair from the environment first, then a bearer token.
  const auth: Auth = envId && envSecret ? { kind: 'basic', tokenId: envId, secret: envSecret } : { kind: 'bearer', token: envBearer! };
  return { baseUrl: normalizeBaseUrl(rawBaseUrl), auth };
}

/**
 * Resolves baseUrl and auth: flags, then environment (SERVICE_BASE_URL, SERVICE_API_TOKEN_ID,
 * SERVICE_API_CLIENT_SECRET, SERVICE_ACCESS_TOKEN, SERVICE_PROFILE, SERVICE_WEBHOOK_PUBKEY), then the
 * profile. A missing piece is a UsageError naming the flag or variable to set.
 */
export function resolveConnection(
  store: Store,
  e: NodeJS.ProcessEnv,
  flags: { profile?: string; baseUrl?: string },
): ResolvedConnection {
  const profileName = validateProfileName(flags.profile ?? env(e, 'SERVICE_PROFILE') ?? store.currentProfileName());
  const stored = store.getProfile(profileName);
  const rawBaseUrl = flags.baseUrl ?? env(e, 'SERVICE_BASE_URL') ?? stored?.baseUrl;
  if (!rawBaseUrl) {
    throw new UsageError(`No base URL for profile "${profileName}": pass --base-url or set SERVICE_BASE_URL`, {
      field: 'baseUrl',
      hint: SANDBOX_HINT,
    });
  }
  const baseUrl = normalizeBaseUrl(rawBaseUrl);
  const auth = resolveAuth(stored, e, profileName);
  return { profileName, profile: { ...effectiveProfile(stored, e), baseUrl }, baseUrl, auth };
}
