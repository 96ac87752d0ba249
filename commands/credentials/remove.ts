/**
 * `svc credentials remove <AuthMethod:id>`: the signed DELETE, approved by a session of another
 * credential of the account; then the local keys that depended on it (its sessions, its software
 * passkey) are forgotten. Irreversible, so it asks on a terminal and wants --yes elsewhere.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { irreversible } from '../irreversible.js';
import { signedProgress } from '../signed-progress.js';
import { requireId } from '../../src/validate.js';
import { UsageError } from '../../src/errors.js';
import { isExpired } from '../../src/auth/auth-session.js';
import type { StoredSession } from '../../src/store/types.js';
import { removeCredential } from '../../src/auth/credentials.js';
import { withAuthHint } from '../auth-hints.js';
import { passkeyFolder } from '../../src/auth/kept-keys.js';
import { credentialsContext } from './context.js';
import { count } from '../../src/words.js';

export type RemoveOptions = OptionsOf<typeof verbs.remove>;

/** The command with a held, unexpired session of the account made with another credential, if there is one. */
function approverHint(held: StoredSession[], session: StoredSession, credentialId: string, now: number): string {
  const other = held.find(
    (s) => s.accountId === session.accountId && s.credentialId !== credentialId && !isExpired(s.expiresAt, now),
  );
  return other
    ? `Approve it with session ${other.id} (${other.type} ${other.nickname}): svc credentials remove ${credentialId} --session ${other.id}`
    : `Log in with another credential of the account (svc credentials list --account ${session.accountId}), then run the command again with --session set to that session.`;
}

export async function run(opts: RemoveOptions, deps: Deps): Promise<void> {
  const credentialId = requireId('AuthMethod', opts.credential, '<credential>');
  const irreversibly = irreversible(deps, `Removing ${credentialId}`);
  const ctx = await credentialsContext(opts, deps, { alwaysSigned: true });
  if (ctx.session?.credentialId === credentialId) {
    throw new UsageError(
      `Session ${ctx.session.id} was made with ${credentialId}: a session of another credential must approve its removal.`,
      {
        input: '--session',
        hint: approverHint(ctx.store.listSessions(), ctx.session, credentialId, deps.clock.now()),
      },
    );
  }
  await irreversibly.confirm(`Remove ${credentialId}? Its sessions end with it.`, 'removed');
  const { ui } = deps;
  const client = await deps.client();
  const progress = signedProgress(ui, deps.signal, `session ${ctx.session?.id ?? '(none held)'}`);
  await progress.run(
    {
      start: `Requesting a removal challenge for ${credentialId}`,
      fail: `Removing ${credentialId} failed; nothing local was changed.`,
      succeed: () => `Removed ${credentialId}.`,
      rethrow: (error) => withAuthHint(error, ctx.session?.credentialId),
    },
    () => removeCredential({ client, credentialId, sign: ctx.sign, hooks: progress.hooks, signal: deps.signal }),
  );

  const ended = ctx.store.listSessions().filter((s) => s.credentialId === credentialId);
  for (const s of ended) ctx.store.deleteSession(s.id);
  const passkeys = passkeyFolder(ctx.store.dir);
  const passkeyForgotten = passkeys.get(credentialId) !== undefined;
  if (passkeyForgotten) passkeys.delete(credentialId);

  ui.result({ id: credentialId, removed: true, sessionKeysForgotten: ended.length, passkeyForgotten }, () => {
    if (ended.length || passkeyForgotten)
      ui.info(
        `${ended.length ? `Forgot ${count(ended.length, 'session key')} it had made` : ''}${ended.length && passkeyForgotten ? '; ' : ''}${passkeyForgotten ? 'deleted its software passkey' : ''}.`,
      );
  });
}
