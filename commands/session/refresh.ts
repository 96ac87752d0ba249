/**
 * `svc session refresh [<Session:id>] [--legacy]`: refresh the active (or named) session with a
 * fresh key; src/auth/refresh.ts does the flow and the careful storage order. This file shows the
 * steps (spinner on a terminal, one line per step in logs), handles the expired case, which
 * cannot be refreshed, by pointing at (or, on a terminal, running) the OTP login instead.
 */
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { connect } from '../connect.js';
import { createUI, type UI } from '../ui.js';
import { requireId } from '../../src/validate.js';
import { AuthRequiredError } from '../../src/errors.js';
import { isExpired, publicView } from '../../src/auth/session.js';
import { reauthCommand } from '../../src/auth/hints.js';
import { refreshableSession, refreshSession } from '../../src/auth/refresh.js';
import type { StoredSession } from '../../src/store/types.js';
import { expiresIn, printSessionSummary } from './format.js';

export interface RefreshOptions {
  session?: string;
  /** Deprecated sealed-key flow: uncompressed key, decrypt encryptedSessionSigningKey. */
  legacy: boolean;
}

/** Says the session expired and how to log in again; on a terminal, offers to do it now. */
async function handleExpired(stored: StoredSession, ui: UI, deps: Deps): Promise<void> {
  const command = reauthCommand(stored.credentialId);
  ui.warn(`${stored.id} ${expiresIn(stored.expiresAt, deps.clock.now())}; an expired session cannot be refreshed.`);
  ui.info(`Log in again with: ${command}`);
  if (stored.credentialId && canPrompt(deps) && !deps.globals.json) {
    if (await deps.prompter.confirm({ message: `Run ${command} now?`, default: true })) {
      const otp = await import('../otp/verify.js');
      await otp.run({ credential: stored.credentialId }, deps);
      return;
    }
  }
  throw new AuthRequiredError(`${stored.id} expired at ${stored.expiresAt}; it cannot be refreshed.`, { hint: `Re-authenticate: ${command}` });
}

export async function run(opts: RefreshOptions, deps: Deps): Promise<void> {
  if (opts.session !== undefined) requireId('Session', opts.session, '<Session:id>');
  const ui = createUI(deps);
  const { store, client, profileName, profile } = connect(deps);
  const sessionId = opts.session ?? profile.activeSessionId;
  if (!sessionId) {
    throw new AuthRequiredError(`Profile "${profileName}" has no active session to refresh.`, {
      hint: `Log in first: ${reauthCommand()} (or name one: svc session refresh <Session:id>)`,
    });
  }
  const stored = store.getSession(sessionId);
  // Checked here as well as in refreshSession, so the terminal can offer the login instead of failing,
  // and so a key that is not held here fails before the progress line claims to be requesting anything.
  if (stored && isExpired(stored.expiresAt, deps.clock.now())) return handleExpired(stored, ui, deps);
  refreshableSession(store, sessionId, deps.clock.now());
  if (opts.legacy) {
    ui.warn('--legacy uses the deprecated sealed-key flow (uncompressed key, encryptedSessionSigningKey); the default client-held key is recommended.');
  }

  const progress = ui.progress(`Requesting a refresh challenge for ${sessionId}`);
  let result;
  try {
    result = await refreshSession({
      client,
      store,
      profileName,
      sessionId,
      legacy: opts.legacy,
      signal: deps.signal,
      now: () => deps.clock.now(),
      hooks: {
        onChallenge: (c) => progress.update(`Signing challenge ${c.requestId} with the current session key`),
        onProcessing: (attempt) => progress.update(`Service still processing (attempt ${attempt}); re-sending the identical signed request`),
      },
    });
  } catch (error) {
    progress.fail('Refresh failed; the current session key is kept.');
    throw error;
  }
  progress.succeed(`Refreshed ${sessionId} → ${result.session.id}${opts.legacy ? ' (legacy flow)' : ''}`);

  if (deps.globals.json) {
    ui.json({ ...publicView(result.session), keyStored: true, previousSessionId: sessionId, legacy: opts.legacy });
    return;
  }
  printSessionSummary(ui, result.session, deps.clock.now());
  ui.success(`New session key stored and made active for profile "${profileName}".`);
}
