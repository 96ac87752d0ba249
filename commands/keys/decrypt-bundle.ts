/** `svc keys decrypt-bundle --bundle <base58check>`: opens an encryptedSessionSigningKey. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { decryptSessionSigningKey } from '../../src/crypto/bundles.js';
import { readPrivateKey } from './read-input.js';

export type DecryptBundleOptions = OptionsOf<typeof verbs.decryptBundle>;

export async function run(opts: DecryptBundleOptions, deps: Deps): Promise<void> {
  const privateKey = await readPrivateKey(opts, deps);
  const plaintext = await decryptSessionSigningKey(opts.bundle, privateKey);
  const { ui } = deps;
  ui.result({ plaintext }, () => ui.out(plaintext));
}
