/**
 * The values shell completion offers where a value goes: which positional argument takes stored
 * session ids, profile names, config keys or scenario names, and the values of each kind a flag's
 * spec names (`completes`). Fixed lists are written into the script; what the store holds is read
 * when TAB is pressed, through `svc completion --values <kind>`.
 */
import type { Deps } from '../deps.js';
import type { Completes } from '../verb.js';
import { CONFIG_KEY_NAMES } from '../config/key-names.js';
import { SCENARIOS } from '../../src/trigger/catalog.js';
import { WEBHOOK_TYPES } from '../../src/service/webhook-types.js';

import { STORED_KINDS } from './stored-kinds.js';

export { STORED_KINDS };
/** What a value completes to: a flag's (its spec's `completes`, files aside) or a positional argument's. */
export type ValueKind = Exclude<Completes, 'files'> | 'config-keys' | 'scenarios';

/** The first positional argument of these commands ("noun verb", or the noun that is itself the command). */
export const POSITIONAL_VALUES: Readonly<Record<string, ValueKind>> = {
  'session use': 'sessions',
  'session revoke': 'sessions',
  'session refresh': 'sessions',
  'config use': 'profiles',
  'config delete': 'profiles',
  'config rename': 'profiles',
  'config get': 'config-keys',
  'config set': 'config-keys',
  'config unset': 'config-keys',
  trigger: 'scenarios',
};

/** The fixed lists, written into the script. */
export function fixedValues(kind: Exclude<ValueKind, (typeof STORED_KINDS)[number]>): readonly string[] {
  if (kind === 'config-keys') return CONFIG_KEY_NAMES;
  if (kind === 'scenarios') return SCENARIOS.map((s) => s.name);
  return WEBHOOK_TYPES;
}

export const isStored = (kind: ValueKind): kind is (typeof STORED_KINDS)[number] =>
  (STORED_KINDS as readonly string[]).includes(kind);

/** What the store holds now: the profile's sessions the service still knows, or every profile name. */
export async function storedValues(kind: (typeof STORED_KINDS)[number], deps: Deps): Promise<string[]> {
  const store = await deps.store();
  if (kind === 'profiles') return Object.keys(store.listProfiles()).sort();
  const { liveStoredSessionIds } = await import('../session/liveness.js');
  return liveStoredSessionIds(deps);
}
