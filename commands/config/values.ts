/**
 * Reading and writing a config key's value in a profile. Most keys are one field; the OTP signer pin
 * is kept per base URL (src/auth/signer-pins.ts), so `config set|get|unset otp-signer` act on the pin
 * of the base URL the profile points at (--base-url, SERVICE_BASE_URL, then the profile's own), or on
 * the profile-wide pin when no base URL is known.
 */
import type { Deps } from '../deps.js';
import type { Profile } from '../../src/store/index.js';
import type { SelectedProfile } from '../../src/store/resolve.js';
import { normalizeBaseUrl } from '../../src/http/base-url.js';
import { pinnedSigner, pinPatch } from '../../src/auth/signer-pins.js';
import type { ConfigKey } from './keys.js';

/** The base URL a per-URL key applies to, or undefined when none is known (or it is malformed). */
export function pinBaseUrl(deps: Pick<Deps, 'globals'>, selected: SelectedProfile): string | undefined {
  const raw = deps.globals.baseUrl ?? selected.effective.baseUrl;
  if (raw === undefined) return undefined;
  try {
    return normalizeBaseUrl(raw);
  } catch {
    return undefined;
  }
}

export function readValue(
  key: ConfigKey,
  stored: Profile | undefined,
  baseUrl: string | undefined,
): string | undefined {
  if (!key.perBaseUrl) return stored?.[key.field];
  if (baseUrl === undefined) return stored?.otpSignerPublicKey;
  const pin = pinnedSigner(stored, baseUrl);
  return pin?.source === 'shipped' ? undefined : pin?.key;
}

/** The patch that sets (or, with undefined, removes) the key. */
export function patchFor(
  key: ConfigKey,
  stored: Profile | undefined,
  baseUrl: string | undefined,
  value: string | undefined,
): Partial<Profile> {
  if (!key.perBaseUrl || baseUrl === undefined) return { [key.field]: value };
  // A per-URL pin replaces the profile-wide one of older versions, which would otherwise still apply elsewhere.
  const patch = pinPatch(stored, baseUrl, value);
  return value === undefined && stored?.otpSigners?.[baseUrl] === undefined
    ? { ...patch, otpSignerPublicKey: undefined }
    : patch;
}
