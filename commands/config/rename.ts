/** `svc config rename <profile> <new>`: moves a profile with its session keys and current mark. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { validateProfileName } from '../../src/store/names.js';
import { requireKnownProfile } from './known-profile.js';

export type RenameOptions = OptionsOf<typeof verbs.rename>;

export async function run(opts: RenameOptions, deps: Deps): Promise<void> {
  const from = validateProfileName(opts.from, '<profile>');
  const to = validateProfileName(opts.to, '<new>');
  const store = await deps.store();
  requireKnownProfile(store, from, '<profile>', (known) => `svc config rename ${known} ${to}`);
  if (Object.hasOwn(store.listProfiles(), to)) {
    throw new UsageError(`A profile named "${to}" already exists.`, {
      input: '<new>',
      hint: `Pick another name, or delete it first: svc config delete ${to}`,
    });
  }
  store.renameProfile(from, to);
  const { ui } = deps;
  ui.result({ from, to, current: store.currentProfileName() }, () =>
    ui.success(`Renamed profile "${from}" to "${to}".`),
  );
}
