/** `svc session use <Session:id>`: make a locally held, unexpired session the profile's active one. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { AuthRequiredError, UsageError } from '../../src/errors.js';
import { isExpired } from '../../src/auth/auth-session.js';
import { reauthCommand } from '../auth-hints.js';
import { liveSessionIds } from './liveness.js';

export type UseOptions = OptionsOf<typeof verbs.use>;

export async function run(opts: UseOptions, deps: Deps): Promise<void> {
  const sessionId = requireId('Session', opts.session, '<Session:id>');
  const [store, { name: profileName }] = await Promise.all([deps.store(), deps.profile()]);
  const stored = store.getSession(sessionId);
  if (!stored) {
    throw new UsageError(`No key for ${sessionId} is held here; only sessions held locally can be used.`, {
      input: '<Session:id>',
      hint: 'See which keys are held with: svc session list',
    });
  }
  // A key belongs to the service (and profile) that issued it; signing elsewhere would only fail.
  if (stored.profile !== profileName) {
    throw new UsageError(`${sessionId} belongs to profile "${stored.profile}", not "${profileName}".`, {
      input: '--profile',
      hint: `Run: svc --profile ${stored.profile} session use ${sessionId}`,
    });
  }
  if (isExpired(stored.expiresAt, deps.clock.now())) {
    throw new AuthRequiredError(`${sessionId} expired at ${stored.expiresAt}.`, {
      hint: `Re-authenticate: ${reauthCommand(stored.credentialId, stored.type)}`,
    });
  }
  // A key the service no longer knows (revoked, or an emulator restarted without --state) would only fail to sign.
  const live = await liveSessionIds(deps, stored.accountId);
  if (!live?.has(sessionId)) {
    throw new AuthRequiredError(
      live === undefined
        ? `${sessionId} cannot be used: the service at ${(await deps.client()).baseUrl} does not know its account ${stored.accountId} (an emulator restarted without --state forgets every session).`
        : `${sessionId} cannot be used: it is no longer live on the service (revoked, or refreshed elsewhere).`,
      {
        hint: `Delete the keys of dead sessions with \`svc session prune\`, then log in: ${reauthCommand(stored.credentialId, stored.type)}`,
      },
    );
  }
  store.setProfile(profileName, { activeSessionId: sessionId });
  const { ui } = deps;
  ui.result({ profile: profileName, activeSessionId: sessionId }, () =>
    ui.success(`Profile "${profileName}" now signs with ${sessionId}.`),
  );
}
