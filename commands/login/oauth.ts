/**
 * `svc login oauth`: the client key comes first (the token's nonce names it). `--nonce` makes and
 * keeps it and prints the nonce; a later `--token` uses the kept key; `--sandbox-token` mints a
 * token for a fresh key at once. The compressed client key is the session key (with --legacy an
 * uncompressed one, and the session key arrives sealed to it); it is stored and made active, and
 * the pending copy is forgotten.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { UsageError } from '../../src/errors.js';
import { pendingOauthFolder } from '../../src/auth/kept-keys.js';
import { mintSandboxToken } from '../../src/auth/oidc-token.js';
import { checkTokenNonce, newOauthClientKey, oauthLogin, type OauthClientKey } from '../../src/auth/oauth-login.js';
import { storeLogin } from '../../src/auth/store-login.js';
import { walletOwner } from '../session/wallet-owner.js';
import { withAuthHint } from '../auth-hints.js';
import { givenToken, sandboxIdentity } from './token-source.js';
import { printLogin } from './print-login.js';

export type LoginOauthOptions = OptionsOf<typeof verbs.oauth>;

export async function run(opts: LoginOauthOptions, deps: Deps): Promise<void> {
  const credentialId = requireId('AuthMethod', opts.credential, '--credential');
  const identity = sandboxIdentity(opts);
  if (opts.nonce && (opts.token !== undefined || identity)) {
    throw new UsageError(
      '--nonce only prints the nonce for a token to come: drop --token/--sandbox-token, or drop --nonce.',
      { input: '--nonce' },
    );
  }
  if (!opts.nonce && !identity && opts.token === undefined && !canPrompt(deps)) {
    throw new UsageError('--token is required when svc cannot prompt (no terminal, CI or --no-input).', {
      input: '--token',
      hint: `Run svc login oauth --credential ${credentialId} --nonce first for the nonce the token must carry, or use --sandbox-token against a sandbox.`,
    });
  }
  const fromFlag = await givenToken(opts.token, deps);
  const { ui } = deps;
  const [store, { name: profileName }] = await Promise.all([deps.store(), deps.profile()]);
  const pending = pendingOauthFolder(store.dir);
  /** Keeps a client key until the token carrying its nonce arrives (a later --token run). */
  const keepPending = (key: OauthClientKey) =>
    pending.save({
      id: credentialId,
      privateKey: key.privateKey,
      publicKey: key.publicKey,
      nonce: key.nonce,
      createdAt: new Date(deps.clock.now()).toISOString(),
    });

  const newKey = () => newOauthClientKey({ legacy: opts.legacy });
  if (opts.nonce) {
    const key = newKey();
    keepPending(key);
    ui.result({ credentialId, nonce: key.nonce, clientPublicKey: key.publicKey }, () => ui.out(key.nonce));
    ui.hint(
      `Have the identity provider issue an ID token with this nonce, then: svc login oauth --credential ${credentialId} --token <jwt|->`,
    );
    return;
  }

  let key: OauthClientKey;
  let token: string;
  if (identity) {
    key = newKey();
    token = mintSandboxToken(identity, { nowMs: deps.clock.now(), nonce: key.nonce });
    ui.info(`Minted a sandbox token for ${identity.subject} at ${identity.issuer} with nonce ${key.nonce}`);
  } else {
    const kept = pending.get(credentialId);
    key = kept ?? newKey();
    if (fromFlag === undefined) ui.info(`The ID token must carry nonce ${key.nonce}`);
    token = fromFlag ?? (await deps.prompter.password({ message: 'Paste the ID token:', mask: true })).trim();
    // A client key made just now cannot be in a token obtained before; keep it so --token can follow.
    if (!kept) keepPending(key);
    checkTokenNonce(token, key, 'token');
  }

  const client = await deps.client();
  let result;
  try {
    result = await oauthLogin({ client, credentialId, token, key, signal: deps.signal });
  } catch (error) {
    throw withAuthHint(error, credentialId);
  }
  const owner = await walletOwner(client, result.session.accountId, deps.signal);
  storeLogin(store, profileName, credentialId, result, deps.clock.now(), owner);
  pending.delete(credentialId);
  printLogin(deps, result, profileName);
}
