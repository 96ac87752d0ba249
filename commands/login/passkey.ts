/**
 * `svc login passkey`: a real WebAuthn assertion by a software passkey held here (see
 * `svc credentials add passkey --software`); the session key arrives sealed to a fresh client key,
 * is stored and made active, and the passkey's signature counter is saved.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { AuthRequiredError, UsageError } from '../../src/errors.js';
import { passkeyFolder, type StoredPasskey } from '../../src/auth/kept-keys.js';
import { passkeyLogin } from '../../src/auth/passkey-login.js';
import { storeLogin } from '../../src/auth/store-login.js';
import { walletOwner } from '../session/wallet-owner.js';
import { withAuthHint } from '../auth-hints.js';
import { printLogin } from './print-login.js';

export type LoginPasskeyOptions = OptionsOf<typeof verbs.passkey>;

function pick(held: StoredPasskey[], credential: string | undefined, profileName: string): StoredPasskey {
  const hint = 'Register one with: svc credentials add passkey --software';
  if (credential !== undefined) {
    const id = requireId('AuthMethod', credential, '--credential');
    const found = held.find((p) => p.id === id);
    if (!found) throw new AuthRequiredError(`No software passkey for ${id} is held here.`, { hint });
    return found;
  }
  const mine = held.filter((p) => p.profile === profileName);
  if (mine.length === 1) return mine[0]!;
  if (mine.length === 0) throw new AuthRequiredError(`Profile "${profileName}" holds no software passkey.`, { hint });
  throw new UsageError(`Profile "${profileName}" holds ${mine.length} software passkeys: name one with --credential.`, {
    input: '--credential',
    hint: mine.map((p) => `${p.id} (${p.nickname})`).join(', '),
  });
}

export async function run(opts: LoginPasskeyOptions, deps: Deps): Promise<void> {
  if (opts.credential !== undefined) requireId('AuthMethod', opts.credential, '--credential');
  const [store, { name: profileName }] = await Promise.all([deps.store(), deps.profile()]);
  const passkeys = passkeyFolder(store.dir);
  const passkey = pick(passkeys.list(), opts.credential, profileName);
  const client = await deps.client();
  // The counter moves before the assertion is sent: one the service may have seen is never reused,
  // and a skipped value is harmless (it only has to increase).
  passkeys.save({ ...passkey, signCount: passkey.signCount + 1 });
  let result;
  try {
    result = await passkeyLogin({ client, credentialId: passkey.id, passkey, signal: deps.signal });
  } catch (error) {
    throw withAuthHint(error, passkey.id);
  }
  const owner = await walletOwner(client, result.session.accountId, deps.signal);
  storeLogin(store, profileName, passkey.id, result, deps.clock.now(), owner);
  printLogin(deps, result, profileName);
}
