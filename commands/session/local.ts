/**
 * Local-only session commands (`use`, `show`) need the store and the profile name but no API
 * credentials, so they must not go through connect(), which insists on a base URL and a token.
 * The profile name follows the same order as src/store resolveConnection: flag, env, current.
 */
import type { Deps } from '../deps.js';
// Straight from the store, not via connect.js: that would load the HTTP client for nothing.
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';

export function localProfile(deps: Deps): { store: Store; profileName: string } {
  const store = openStore({ env: deps.env });
  const fromEnv = deps.env.SERVICE_PROFILE?.trim();
  const profileName = deps.globals.profile ?? (fromEnv ? fromEnv : store.currentProfileName());
  return { store, profileName };
}
