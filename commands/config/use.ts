/** `svc config use <profile>`: makes an existing profile the current one. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { validateProfileName } from '../../src/store/names.js';
import { requireKnownProfile } from './known-profile.js';

export type UseOptions = OptionsOf<typeof verbs.use>;

export async function run(opts: UseOptions, deps: Deps): Promise<void> {
  const name = validateProfileName(opts.profile, '<profile>');
  const store = await deps.store();
  // Switching to a name that does not exist is almost always a typo; creating goes through `set`.
  requireKnownProfile(store, name, '<profile>', (known) => `svc config use ${known}`);
  store.setCurrentProfile(name);
  const { ui } = deps;
  ui.result({ current: name }, () => {
    ui.success(`Now using profile "${name}".`);
    if (deps.env.SERVICE_PROFILE?.trim())
      ui.warn(`SERVICE_PROFILE=${deps.env.SERVICE_PROFILE} is set and wins over the current profile.`);
  });
}
