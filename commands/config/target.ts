/** Which profile `svc config get/set` act on: --profile, then SERVICE_PROFILE, then the current one. */
import type { Deps } from '../deps.js';
import type { Store } from '../../src/store/index.js';
import { validateProfileName } from '../../src/store/names.js';

export function targetProfile(store: Store, deps: Pick<Deps, 'globals' | 'env'>): string {
  const fromEnv = deps.env.SERVICE_PROFILE?.trim() || undefined;
  return validateProfileName(deps.globals.profile ?? fromEnv ?? store.currentProfileName());
}
