/**
 * Which OTP bundle signer a login trusts. A pin belongs to a base URL, not to a profile: the same
 * profile may point at the emulator one day and at the remote sandbox the next, and each service
 * signs with its own enclave key. Kept in the profile as `otpSigners` (base URL → uncompressed hex).
 * Order: the profile's pin for this base URL, then the profile-wide pin of older versions (and of
 * setting the otp-signer config key when no base URL is known), then the key shipped for the service's
 * production URL. None: the first key seen is trusted and pinned (trust on first use).
 * A sandbox token has pins of its own (`sandboxOtpSigners`): the sandbox and production share the
 * production URL but not its signer; which pin a login uses is decided in signer-trust.ts.
 */
import type { Profile } from '../store/types.js';

/** The service's production base URL (the one server of its API description). */
export const PRODUCTION_BASE_URL = 'https://api.lightspark.com/grid/2025-10-13';

/** The provider's production OTP signer (DESIGN.md "Pins"), trusted for PRODUCTION_BASE_URL by default. */
export const PRODUCTION_OTP_SIGNER =
  '046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201';

const SHIPPED_PINS: Readonly<Record<string, string>> = { [PRODUCTION_BASE_URL]: PRODUCTION_OTP_SIGNER };

export interface SignerPin {
  key: string;
  /** `base-url`: pinned for this URL; `profile`: profile-wide; `shipped`: svc's default for production. */
  source: 'base-url' | 'profile' | 'shipped';
}

export function pinnedSigner(profile: Profile | undefined, baseUrl: string): SignerPin | undefined {
  const own = profile?.otpSigners?.[baseUrl];
  if (own) return { key: own, source: 'base-url' };
  if (profile?.otpSignerPublicKey) return { key: profile.otpSignerPublicKey, source: 'profile' };
  const shipped = SHIPPED_PINS[baseUrl];
  return shipped ? { key: shipped, source: 'shipped' } : undefined;
}

/** Which token environment a pin serves: `any` is every token's pin (otpSigners), `sandbox` sandbox tokens' own. */
export type PinScope = 'any' | 'sandbox';

const PIN_MAP = { any: 'otpSigners', sandbox: 'sandboxOtpSigners' } as const;

/** The pin kept for sandbox tokens at `baseUrl`, if one was trusted there. */
export function sandboxPin(profile: Profile | undefined, baseUrl: string): string | undefined {
  return profile?.sandboxOtpSigners?.[baseUrl];
}

/** The profile patch that pins `key` for `baseUrl` in `scope` (undefined removes that pin). */
export function pinPatch(
  profile: Profile | undefined,
  baseUrl: string,
  key: string | undefined,
  scope: PinScope = 'any',
): Partial<Profile> {
  const field = PIN_MAP[scope];
  const signers = { ...profile?.[field] };
  if (key === undefined) delete signers[baseUrl];
  else signers[baseUrl] = key;
  return { [field]: Object.keys(signers).length > 0 ? signers : undefined };
}
