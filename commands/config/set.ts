/**
 * `svc config set <key> <value>` writes one key of the target profile. A value of "-" is read from a
 * prompt or stdin; a secret is never echoed back, and a secret typed on the command line gets a
 * warning because it is now in the shell history.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { configKey, displayValue } from './keys.js';
import { patchFor, pinBaseUrl } from './values.js';
import { readValueFromInput } from './read-value.js';
import { textOrAtFile } from '../input.js';

export type SetOptions = OptionsOf<typeof verbs.set>;

export async function run(opts: SetOptions, deps: Deps): Promise<void> {
  const key = configKey(opts.key);
  if (opts.value === undefined || opts.value === '') {
    throw new UsageError(
      `a value is required: svc config set ${key.name} <value>${key.secret ? ' (or "-" to type or pipe it)' : ''}`,
      { input: 'value' },
    );
  }
  const { ui } = deps;
  let raw = opts.value;
  if (raw === '-') raw = await readValueFromInput(key, deps);
  // "@path" only for keys that are files by nature (PEM); everything else is taken literally.
  else if (key.name === 'webhook-public-key') raw = await textOrAtFile(raw, key.name, deps);
  else if (key.secret)
    ui.warn(
      `${key.name} given on the command line is now in your shell history; next time pass "-" to type or pipe it.`,
    );
  const value = await key.check(raw, key.name);

  const [store, selected] = await Promise.all([deps.store(), deps.profile({ create: true })]);
  const profile = selected.name;
  store.setProfile(profile, patchFor(key, selected.stored, pinBaseUrl(deps, selected), value));
  const shown = displayValue(key, value)!;
  ui.result({ profile, key: key.name, value: shown }, () =>
    ui.success(`Set ${key.name} = ${shown} in profile "${profile}".`),
  );
}
