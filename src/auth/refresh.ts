/**
 * Session refresh (spec "POST /auth/sessions/{id}/refresh"): a fresh key pair, the two-step signed
 * retry signed with the OLD session key, PROCESSING followed to 201 by the engine, then storage.
 *
 * Client-held-key flow (compressed key, recommended): our new private key is the session key.
 * Legacy flow (uncompressed key, deprecated): the 201 carries encryptedSessionSigningKey sealed to
 * our key; its plaintext is the session key.
 *
 * Storage order is what keeps a failure harmless: nothing local changes until the 201 is in hand;
 * then the new session is saved, then made active, and only then is the old key forgotten. Stopping
 * anywhere before the last step leaves the old session stored and (until the 201) still active.
 */
import type { ApiClient } from '../http/client.js';
import type { Store, StoredSession } from '../store/types.js';
import { signedRequest, type SignedRequestHooks } from '../signing/engine.js';
import { generateKeyPair, publicKeyFromPrivate, validatePrivateKey } from '../crypto/keys.js';
import { createStamper } from '../crypto/stamp.js';
import { ApiError, AuthRequiredError, UsageError, VerificationError } from '../errors.js';
import { type Credential, reauthWords, withReauth } from './reauth.js';
import { requireId } from '../validate.js';
import { isExpired, parseAuthSession, type AuthSession } from './auth-session.js';
import { storedSession } from './store-login.js';

export interface RefreshOptions {
  client: ApiClient;
  store: Store;
  /** The profile whose active session becomes the new one. */
  profileName: string;
  sessionId: string;
  legacy?: boolean;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
  now?: () => number;
  backoff?: { initialMs?: number; maxMs?: number };
}

export interface RefreshResult {
  session: AuthSession;
  stored: StoredSession;
  previous: StoredSession;
}

/**
 * The stored session to refresh, refusing (before any request) one we cannot or must not send.
 * `credential` is the profile's login credential, named in the log-in step when no key is held.
 */
export function refreshableSession(
  store: Store,
  sessionId: string,
  now: number,
  credential: Credential = {},
): StoredSession {
  const stored = store.getSession(sessionId);
  if (!stored) {
    throw new AuthRequiredError(`No key for ${sessionId} is held here, so it cannot be signed for.`, {
      reason: 'NO_KEY_HELD',
      hint: `List the sessions held here, or ${reauthWords(credential)}.`,
      next: { action: 'log-in', ...credential },
    });
  }
  if (isExpired(stored.expiresAt, now)) {
    throw new AuthRequiredError(
      `${sessionId} expired at ${stored.expiresAt}; an expired session cannot be refreshed.`,
      {
        reason: 'SESSION_EXPIRED',
        next: { action: 'log-in', credentialId: stored.credentialId, type: stored.type },
        hint: `Re-authenticate: ${reauthWords(stored)}.`,
      },
    );
  }
  return stored;
}

/** The session private key from the 201: ours, or (legacy) the one sealed to ours. */
async function sessionKeyFrom(
  session: AuthSession,
  newKey: { privateKey: string },
  legacy: boolean,
  path: string,
): Promise<string> {
  if (!legacy) return newKey.privateKey;
  if (typeof session.encryptedSessionSigningKey !== 'string') {
    throw new ApiError({
      status: 201,
      code: 'INVALID_RESPONSE',
      message: `${path} (legacy flow) returned no encryptedSessionSigningKey`,
      method: 'POST',
      path,
    });
  }
  // Loaded only here: HPKE is needed by the deprecated flow alone, and refresh is a startup-timed command.
  const { decryptSessionSigningKey } = await import('../crypto/bundles.js');
  const plaintext = await decryptSessionSigningKey(session.encryptedSessionSigningKey, newKey.privateKey);
  try {
    // A plaintext that is not a usable P-256 scalar would only fail later, at the first signature.
    return validatePrivateKey(plaintext, 'encryptedSessionSigningKey');
  } catch (error) {
    if (error instanceof UsageError)
      throw new VerificationError('encryptedSessionSigningKey did not decrypt to a P-256 private key');
    throw error;
  }
}

export async function refreshSession(opts: RefreshOptions): Promise<RefreshResult> {
  const now = opts.now ?? Date.now;
  const previous = refreshableSession(opts.store, requireId('Session', opts.sessionId, '<Session:id>'), now());
  return refreshHeld(opts, previous);
}

export interface ProfileRefreshHooks extends SignedRequestHooks {
  /**
   * An expired session is never sent. Without this hook that is an AuthRequiredError naming the
   * login to run; with it, the caller deals with it (e.g. offers that login) and nothing is refreshed.
   */
  expired?(stored: StoredSession): Promise<void>;
  /** The session is refreshable and the client loaded: the request is about to go out. */
  starting?(sessionId: string): void;
}

export interface ProfileRefreshOptions extends Omit<RefreshOptions, 'client' | 'sessionId' | 'hooks'> {
  /** Loaded only once the session is known to be refreshable: a stored session is judged from the
   *  store alone, even where no API credentials are configured. */
  client: () => Promise<ApiClient>;
  /** The session named by the user; the profile's active one when undefined. */
  sessionId?: string;
  activeSessionId?: string;
  /** The profile's login credential, named in the log-in step when there is nothing to refresh. */
  credentialId?: string;
  hooks?: ProfileRefreshHooks;
}

/**
 * The whole of a session refresh: which session (named, else the profile's active one), the
 * refusals decided from the store before any request, then the signed retry and the storage.
 * Resolves undefined when the session had expired and `hooks.expired` dealt with it.
 */
export async function refreshProfileSession(opts: ProfileRefreshOptions): Promise<RefreshResult | undefined> {
  const now = opts.now ?? Date.now;
  if (opts.sessionId !== undefined) requireId('Session', opts.sessionId, '<Session:id>');
  const sessionId = opts.sessionId ?? opts.activeSessionId;
  if (!sessionId) {
    throw new AuthRequiredError(`Profile "${opts.profileName}" has no active session to refresh.`, {
      reason: 'NO_SESSION_TO_REFRESH',
      hint: `Log in first, or name the session to refresh.`,
      next: { action: 'log-in', credentialId: opts.credentialId },
    });
  }
  const held = opts.store.getSession(sessionId);
  if (held && opts.hooks?.expired && isExpired(held.expiresAt, now())) {
    await opts.hooks.expired(held);
    return undefined;
  }
  const previous = refreshableSession(opts.store, sessionId, now(), { credentialId: opts.credentialId });
  const client = await opts.client();
  opts.hooks?.starting?.(sessionId);
  return refreshHeld({ ...opts, client, sessionId }, previous);
}

/** The signed retry signed with `previous`, then the storage in its careful order. */
async function refreshHeld(opts: RefreshOptions, previous: StoredSession): Promise<RefreshResult> {
  const { client, store, profileName, sessionId, legacy = false } = opts;
  const now = opts.now ?? Date.now;
  const newKey = generateKeyPair({ uncompressed: legacy });
  const path = `/auth/sessions/${sessionId}/refresh`;

  let res;
  try {
    res = await signedRequest(client, {
      method: 'POST',
      path,
      body: { clientPublicKey: newKey.publicKey },
      sign: createStamper(previous.privateKey, previous.publicKey),
      hooks: opts.hooks,
      signal: opts.signal,
      now,
      backoff: opts.backoff,
    });
  } catch (error) {
    throw withReauth(error, { credentialId: previous.credentialId, type: previous.type });
  }
  if (res.status !== 201) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `${path} answered ${res.status}; expected 201 with the new session`,
      method: 'POST',
      path,
    });
  }
  const session = parseAuthSession(res.body, { method: 'POST', path, status: res.status });
  const privateKey = await sessionKeyFrom(session, newKey, legacy, path);

  // Client-held flow: the key is ours, its public half already made (and compressed); the legacy
  // flow's key came sealed, so its public half is derived.
  const publicKey = legacy ? publicKeyFromPrivate(privateKey) : newKey.publicKey;
  const keys = { session, privateKey, publicKey };
  // A refresh keeps the wallet, so its owner carries over: nothing more to ask the service.
  const owner = session.accountId === previous.accountId ? previous.customerId : undefined;
  const stored = storedSession(keys, previous.profile, previous.credentialId, now(), owner);
  store.saveSession(stored);
  store.setProfile(profileName, { activeSessionId: stored.id });
  // The old key goes last, and only if it is a different session (an in-place refresh reuses the id).
  if (previous.id !== stored.id) store.deleteSession(previous.id);
  return { session, stored, previous };
}
