/**
 * `svc session refresh [<Session:id>] [--legacy]`: refresh the active (or named) session with a
 * fresh key; src/auth/refresh.ts (refreshProfileSession, one call) does the whole flow and the
 * careful storage order. This file answers its UI hooks: it shows the steps (spinner on a
 * terminal, one line per step in logs) and handles the expired case, which cannot be refreshed,
 * by pointing at (or, on a terminal, running) the OTP login instead.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { signedProgress } from '../signed-progress.js';
import { requireId } from '../../src/validate.js';
import { AuthRequiredError } from '../../src/errors.js';
import { publicView } from '../../src/auth/auth-session.js';
import { reauthCommand } from '../auth-hints.js';
import { refreshProfileSession } from '../../src/auth/refresh.js';
import type { StoredSession } from '../../src/store/types.js';
import { expiresIn, printSessionSummary } from './format.js';

export type RefreshOptions = OptionsOf<typeof verbs.refresh>;

/**
 * An expired session is never sent. Where nobody can answer (CI, no terminal, --json) that is one
 * error naming the login command; on a terminal it offers to run that login now (--yes accepts).
 */
async function handleExpired(stored: StoredSession, deps: Deps): Promise<void> {
  const command = reauthCommand(stored.credentialId, stored.type);
  const hint = `Re-authenticate: ${command}`;
  const what = `${stored.id} ${expiresIn(stored.expiresAt, deps.clock.now())} (${stored.expiresAt}); an expired session cannot be refreshed.`;
  // Only an OTP login can be run from here: OAuth needs a token and a passkey its own command.
  const otp = stored.type === undefined || stored.type === 'EMAIL_OTP' || stored.type === 'SMS_OTP';
  if (!stored.credentialId || !otp || !canPrompt(deps) || deps.globals.json)
    throw new AuthRequiredError(what, { hint });
  deps.ui.warn(what);
  if (deps.globals.yes || (await deps.prompter.confirm({ message: `Run ${command} now?`, default: true }))) {
    const otp = await import('../otp/verify.js');
    return otp.run({ credential: stored.credentialId }, deps);
  }
  throw new AuthRequiredError('Not refreshed: the session has expired.', { hint });
}

export async function run(opts: RefreshOptions, deps: Deps): Promise<void> {
  // Bad input is refused first, before the store is even opened.
  if (opts.session !== undefined) requireId('Session', opts.session, '<Session:id>');
  const [store, { name: profileName, stored: profile }] = await Promise.all([deps.store(), deps.profile()]);
  const { ui } = deps;
  const progress = signedProgress(ui, deps.signal, 'the current session key');
  let sessionId: string | undefined;
  // The spinner starts once the session is known: refusals before the request (no session, no key,
  // expired) have no spinner to end.
  const result = await progress.run(
    {
      fail: 'Refresh failed; the current session key is kept.',
      succeed: (refreshed) =>
        refreshed && `Refreshed ${sessionId} → ${refreshed.session.id}${opts.legacy ? ' (legacy flow)' : ''}`,
    },
    // One call for the whole flow; this file only answers its UI questions.
    () =>
      refreshProfileSession({
        client: () => deps.client(),
        store,
        profileName,
        sessionId: opts.session,
        activeSessionId: profile?.activeSessionId,
        credentialId: profile?.credentialId,
        legacy: opts.legacy,
        signal: deps.signal,
        now: () => deps.clock.now(),
        hooks: {
          ...progress.hooks,
          expired: (stored) => handleExpired(stored, deps),
          starting(id) {
            sessionId = id;
            if (opts.legacy) {
              ui.warn(
                '--legacy uses the deprecated sealed-key flow (uncompressed key, encryptedSessionSigningKey); the default client-held key is recommended.',
              );
            }
            progress.start(`Requesting a refresh challenge for ${id}`);
          },
        },
      }),
  );
  if (!result) return; // expired: handleExpired ran the login instead

  ui.result(
    { ...publicView(result.session), keyStored: true, previousSessionId: sessionId, legacy: opts.legacy },
    () => {
      printSessionSummary(ui, result.session, deps.clock.now());
      ui.success(`New session key stored and made active for profile "${profileName}".`);
    },
  );
}
