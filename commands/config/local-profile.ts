/**
 * Writes the profile that points at a running emulator and makes it current, so that after
 * `svc emulator start` (and inside `svc demo`) every command works with no flags. Called by
 * commands/emulator/start.ts (unless --no-profile) and commands/demo/context.ts.
 */
import type { Store } from '../../src/store/index.js';
import { pinPatch } from '../../src/auth/signer-pins.js';

/** The profile that points at the embedded emulator; `webhook listen` registers itself only under it. */
export const LOCAL_PROFILE = 'local';

export interface EmulatorConnection {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  otpSignerPublicKey: string;
  webhookPublicKey: string;
  fixtures: { credentialId: string };
}

/**
 * Writes the `local` profile and makes it current; returns the profile that was current before, so
 * the emulator can hand it back when it stops. The emulator makes a new OTP signer on every start
 * (unless --state keeps it), so it replaces its own base URL's pin in every profile that has one:
 * a pin from the previous run would only refuse this run's bundles.
 */
export function saveEmulatorProfile(store: Store, emulator: EmulatorConnection): string {
  const previous = store.currentProfileName();
  for (const [name, profile] of Object.entries(store.listProfiles())) {
    if (name === LOCAL_PROFILE) continue;
    // A sandbox token's pin (trusted on first use) is replaced too: the emulator is a sandbox.
    for (const scope of ['any', 'sandbox'] as const) {
      const pins = scope === 'any' ? profile.otpSigners : profile.sandboxOtpSigners;
      if (pins?.[emulator.baseUrl] === undefined) continue;
      store.setProfile(name, pinPatch(store.getProfile(name), emulator.baseUrl, emulator.otpSignerPublicKey, scope));
    }
  }
  const local = store.getProfile(LOCAL_PROFILE);
  store.setProfile(LOCAL_PROFILE, {
    baseUrl: emulator.baseUrl,
    apiTokenId: emulator.apiTokenId,
    apiClientSecret: emulator.apiClientSecret,
    ...pinPatch(local, emulator.baseUrl, emulator.otpSignerPublicKey),
    // A profile-wide pin would outrank nothing here but still apply to other URLs; the pin is per URL.
    otpSignerPublicKey: undefined,
    webhookPublicKey: emulator.webhookPublicKey,
    // What `svc otp verify` offers with no --credential: the first run needs no id copied.
    credentialId: emulator.fixtures.credentialId,
    // A previous emulator's bearer token or session means nothing to this one: clear them.
    accessToken: undefined,
    activeSessionId: undefined,
  });
  store.setCurrentProfile(LOCAL_PROFILE);
  return previous;
}

/**
 * Gives the current-profile mark back to `previous` when the emulator stops, unless someone moved it
 * meanwhile (then their choice stands). Returns the profile made current again, if any.
 */
export function restoreCurrentProfile(store: Store, previous: string): string | undefined {
  if (previous === LOCAL_PROFILE || store.currentProfileName() !== LOCAL_PROFILE) return undefined;
  store.setCurrentProfile(previous);
  return previous;
}
