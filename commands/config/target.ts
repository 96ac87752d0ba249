/**
 * Which profile a store-only command acts on (config get/set, session show/use/refresh, the webhook
 * key's profile): --profile, then SERVICE_PROFILE, then the current one, the same order src/store
 * resolveConnection uses, so a command that never needs the network agrees with one that does.
 */
import type { Deps } from '../deps.js';
import { openDepsStore } from '../open-store.js';
import type { Store } from '../../src/store/index.js';
import { validateProfileName } from '../../src/store/names.js';

export function targetProfile(store: Store, deps: Pick<Deps, 'globals' | 'env'>): string {
  const fromEnv = deps.env.SERVICE_PROFILE?.trim() || undefined;
  return validateProfileName(deps.globals.profile ?? fromEnv ?? store.currentProfileName());
}

/** The store and the target profile's name, without loading the HTTP client (see open-store.ts). */
export function openProfile(deps: Pick<Deps, 'globals' | 'env'>): { store: Store; profileName: string } {
  const store = openDepsStore(deps);
  return { store, profileName: targetProfile(store, deps) };
}
