/** `svc config get <key>`: one key of the target profile on stdout; secrets masked. Exit 1 when unset. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { SvcError } from '../../src/errors.js';
import { configKey, displayValue } from './keys.js';
import { pinBaseUrl, readValue } from './values.js';

export type GetOptions = OptionsOf<typeof verbs.get>;

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const key = configKey(opts.key);
  const selected = await deps.profile();
  const { name: profile, stored } = selected;
  const value = displayValue(key, readValue(key, stored, pinBaseUrl(deps, selected)));
  if (value === undefined) {
    // Like `git config --get`: unset is exit 1, so scripts can test for it.
    throw new SvcError(`${key.name} is not set in profile "${profile}".`, {
      hint: `Set it with: svc config set ${key.name} <value>`,
    });
  }
  const { ui } = deps;
  ui.result({ profile, key: key.name, value, ...(key.secret ? { masked: true } : {}) }, () => ui.out(value));
}
