/**
 * What the credentials commands resolve before any request: the account (--account, else the
 * active session's) and the signing session (--session, else the active one), and the store and
 * profile they came from. A missing or expired key is refused when it would have to sign: at once
 * for a removal (always signed), at the challenge for an add (an account's first credential and a
 * list need no signature, so an expired session must not stop them).
 */
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { AuthRequiredError, UsageError } from '../../src/errors.js';
import { isExpired } from '../../src/auth/auth-session.js';
import { createStamper } from '../../src/crypto/stamp.js';
import type { Signer } from '../../src/auth/credentials.js';
import type { Store, StoredSession } from '../../src/store/types.js';
import { reauthCommand } from '../auth-hints.js';

export interface CredentialsContext {
  store: Store;
  profileName: string;
  /** The signing session, when one is held (an account's first credential needs none). */
  session?: StoredSession;
  /** The OTP credential the profile offers for a login (the emulator's fixture), for hints. */
  loginCredentialId?: string;
  sign: Signer;
}

export async function credentialsContext(
  opts: { session?: string },
  deps: Deps,
  { alwaysSigned = false } = {},
): Promise<CredentialsContext> {
  if (opts.session !== undefined) requireId('Session', opts.session, '--session');
  const [store, { name: profileName, effective: profile }] = await Promise.all([deps.store(), deps.profile()]);
  const id = opts.session ?? profile.activeSessionId;
  const session = id ? store.getSession(id) : undefined;
  if (opts.session !== undefined && !session) {
    throw new AuthRequiredError(`No key for ${opts.session} is held here.`, {
      hint: 'List the keys held here with svc session list.',
    });
  }
  const expired = () =>
    session && isExpired(session.expiresAt, deps.clock.now())
      ? new AuthRequiredError(`${session.id} expired at ${session.expiresAt}; it cannot sign.`, {
          hint: `Log in again (svc login otp|oauth|passkey), or pick another session with --session.`,
        })
      : undefined;
  if (alwaysSigned) {
    const refusal = expired();
    if (refusal) throw refusal;
  }
  const stamp = session ? createStamper(session.privateKey) : undefined;
  return {
    store,
    profileName,
    ...(session ? { session } : {}),
    ...(profile.credentialId ? { loginCredentialId: profile.credentialId } : {}),
    sign: stamp
      ? (payload) => {
          const late = expired();
          if (late) throw late;
          return stamp(payload);
        }
      : undefined,
  };
}

/** --account, else the signing session's account; exit 2 naming --account when neither exists. */
export function accountOf(
  account: string | undefined,
  ctx: Pick<CredentialsContext, 'session' | 'loginCredentialId'>,
): string {
  if (account !== undefined) return requireId('InternalAccount', account, '--account');
  if (ctx.session) return ctx.session.accountId;
  throw new UsageError('--account is required: this profile has no active session to take the account from.', {
    input: '--account',
    hint: `Pass --account <InternalAccount:id>, or log in first: ${reauthCommand(ctx.loginCredentialId)}`,
  });
}
