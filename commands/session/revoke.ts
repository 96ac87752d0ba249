/**
 * `svc session revoke <Session:id>`: signed DELETE, then the local key is forgotten. Irreversible,
 * so it asks on a terminal and demands --yes elsewhere (a script must say it means it).
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { irreversible } from '../irreversible.js';
import { signedProgress } from '../signed-progress.js';
import { requireId } from '../../src/validate.js';
import { reauthCommand } from '../auth-hints.js';
import { revokeSession } from '../../src/auth/list-revoke.js';

export type RevokeOptions = OptionsOf<typeof verbs.revoke>;

export async function run(opts: RevokeOptions, deps: Deps): Promise<void> {
  const sessionId = requireId('Session', opts.session, '<Session:id>');
  const irreversibly = irreversible(deps, `Revoking ${sessionId}`);
  const { ui } = deps;
  const [store, client, { name: profileName, effective: profile }] = await Promise.all([
    deps.store(),
    deps.client(),
    deps.profile(),
  ]);
  await irreversibly.confirm(`Revoke ${sessionId}? It will no longer sign anything.`, 'revoked');

  const wasActive = profile.activeSessionId === sessionId;
  // Read before the key is deleted: the hint below names the credential to log in with again.
  const credentialId = store.getSession(sessionId)?.credentialId;
  const progress = signedProgress(ui, deps.signal);
  const result = await progress.run(
    {
      start: `Requesting a revocation challenge for ${sessionId}`,
      fail: `Revocation of ${sessionId} failed; its local key is kept.`,
      succeed: (revoked) => `Revoked ${sessionId}${revoked.keyForgotten ? '; its local key was deleted' : ''}.`,
    },
    () =>
      revokeSession({
        client,
        store,
        sessionId,
        activeSessionId: profile.activeSessionId,
        hooks: progress.hooks,
        signal: deps.signal,
        now: () => deps.clock.now(),
      }),
  );
  ui.result({ id: sessionId, revoked: true, keyForgotten: result.keyForgotten }, () => {
    if (wasActive)
      ui.hint(`Profile "${profileName}" has no active session now; log in with ${reauthCommand(credentialId)}`);
  });
}
