/** `svc config unset <key>`: removes one key of the target profile (the OTP signer: its pin for the base URL). */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { configKey } from './keys.js';
import { patchFor, pinBaseUrl, readValue } from './values.js';

export type UnsetOptions = OptionsOf<typeof verbs.unset>;

export async function run(opts: UnsetOptions, deps: Deps): Promise<void> {
  const key = configKey(opts.key);
  const [store, selected] = await Promise.all([deps.store(), deps.profile()]);
  const baseUrl = pinBaseUrl(deps, selected);
  const was = readValue(key, selected.stored, baseUrl);
  // Like `git config --unset`, removing what is not there is not an error: the end state is the same.
  if (was !== undefined) store.setProfile(selected.name, patchFor(key, selected.stored, baseUrl, undefined));
  const { ui } = deps;
  ui.result({ profile: selected.name, key: key.name, removed: was !== undefined }, () => {
    const what = key.perBaseUrl && baseUrl ? `${key.name} for ${baseUrl}` : key.name;
    if (was === undefined) ui.info(`${what} was not set in profile "${selected.name}".`);
    else ui.success(`Removed ${what} from profile "${selected.name}".`);
    if (key.perBaseUrl === 'sandbox')
      ui.hint('The next `svc otp verify` with a sandbox token trusts and pins the signer it sees.');
    else if (key.perBaseUrl)
      ui.hint(
        'The next `svc otp verify` trusts and pins the signer it sees (production tokens at the production URL keep the signer svc ships).',
      );
  });
}
