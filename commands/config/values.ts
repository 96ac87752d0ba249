/**
 * Reading and writing a config key's value in a profile. Most keys are one field; the OTP signer pin
 * is kept per base URL (src/auth/signer-pins.ts), so `config set|get|unset otp-signer` act on the pin
 * of the base URL the profile points at (--base-url, SERVICE_BASE_URL, then the profile's own), or on
 * the profile-wide pin when no base URL is known; `sandbox-otp-signer` on the pin sandbox tokens
 * keep for that base URL (signer-trust.ts), which needs a base URL.
 */
import type { Deps } from '../deps.js';
import type { Profile } from '../../src/store/index.js';
import type { SelectedProfile } from '../../src/store/resolve.js';
import { normalizeBaseUrl } from '../../src/http/base-url.js';
import { pinnedSigner, pinPatch, sandboxPin } from '../../src/auth/signer-pins.js';
import { UsageError } from '../../src/errors.js';
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

/** A key kept per base URL with no profile-wide form cannot be read or written without one. */
function requireBaseUrl(key: ConfigKey, baseUrl: string | undefined): void {
  if (key.perBaseUrl && key.field === undefined && baseUrl === undefined) {
    throw new UsageError(`${key.name} is kept per base URL, and this profile has none.`, {
      input: 'key',
      hint: `Name the base URL before the command (svc --base-url <url> config get ${key.name}), or set the profile's: svc config set base-url <url>.`,
    });
  }
}

export function readValue(
  key: ConfigKey,
  stored: Profile | undefined,
  baseUrl: string | undefined,
): string | undefined {
  requireBaseUrl(key, baseUrl);
  if (key.perBaseUrl === 'sandbox') return sandboxPin(stored, baseUrl!);
  if (!key.perBaseUrl || baseUrl === undefined) return key.field && stored?.[key.field];
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
  requireBaseUrl(key, baseUrl);
  if (key.perBaseUrl === 'sandbox') return pinPatch(stored, baseUrl!, value, 'sandbox');
  if (!key.perBaseUrl || baseUrl === undefined) return key.field ? { [key.field]: value } : {};
  // A per-URL pin replaces the profile-wide one of older versions, which would otherwise still apply elsewhere.
  const patch = pinPatch(stored, baseUrl, value);
  return value === undefined && stored?.otpSigners?.[baseUrl] === undefined
    ? { ...patch, otpSignerPublicKey: undefined }
    : patch;
}
