/**
 * Writes the profile that points at a running emulator and makes it current, so that after
 * `svc emulator start` (and inside `svc demo`) every command works with no flags. Called by
 * commands/emulator/start.ts (unless --no-profile) and commands/demo/context.ts.
 */
import type { Store } from '../../src/store/index.js';

/** The profile that points at the embedded emulator; `webhook listen` registers itself only under it. */
export const LOCAL_PROFILE = 'local';

export interface EmulatorConnection {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  otpSignerPublicKey: string;
  webhookPublicKey: string;
}

export function saveEmulatorProfile(store: Store, emulator: EmulatorConnection): void {
  store.setProfile(LOCAL_PROFILE, {
    baseUrl: emulator.baseUrl,
    apiTokenId: emulator.apiTokenId,
    apiClientSecret: emulator.apiClientSecret,
    otpSignerPublicKey: emulator.otpSignerPublicKey,
    webhookPublicKey: emulator.webhookPublicKey,
    // A previous emulator's bearer token or session means nothing to this one: clear them.
    accessToken: undefined,
    activeSessionId: undefined,
  });
  store.setCurrentProfile(LOCAL_PROFILE);
}
