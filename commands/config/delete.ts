/**
 * `svc config delete <profile>`: removes a profile and the session keys held for it. The keys
 * cannot be recovered, so it asks on a terminal and demands --yes elsewhere, like session revoke.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { irreversible } from '../irreversible.js';
import { validateProfileName } from '../../src/store/names.js';
import { requireKnownProfile } from './known-profile.js';

export type DeleteOptions = OptionsOf<typeof verbs.remove>;

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const name = validateProfileName(opts.profile, '<profile>');
  const store = await deps.store();
  requireKnownProfile(store, name, '<profile>', (known) => `svc config delete ${known}`);
  const keys = store.listSessions(name).length;
  const what = `profile "${name}"${keys ? ` and the ${keys} session key${keys === 1 ? '' : 's'} held for it` : ''}`;
  await irreversible(deps, `Deleting ${what}`).confirm(`Delete ${what}?`, 'deleted');
  const wasCurrent = store.currentProfileName() === name;
  store.deleteProfile(name);
  const { ui } = deps;
  ui.result({ deleted: name, sessionKeysDeleted: keys, current: store.currentProfileName() }, () => {
    ui.success(`Deleted ${what}.`);
    if (wasCurrent) ui.hint(`No profile is current now; pick one with: svc config use <profile>`);
  });
}
