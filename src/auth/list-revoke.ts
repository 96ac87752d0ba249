/**
 * Listing and revoking sessions. Listing is plain Basic auth; revoking is a signed DELETE (spec
 * "DELETE /auth/sessions/{id}": 202 challenge, signed retry → 204). The service accepts a
 * signature from any active session key of the wallet, so a session we do not hold can still be
 * revoked with the active session's key.
 */
import type { ApiClient } from '../http/client.js';
import type { Store, StoredSession } from '../store/types.js';
import { signedRequest, type SignedRequestHooks } from '../signing/engine.js';
import { createStamper } from '../crypto/stamp.js';
import { ApiError, AuthRequiredError } from '../errors.js';
import { type Credential, reauthWords, withReauth } from './reauth.js';
import { requireId } from '../validate.js';
import { isExpired, parseAuthSession, type AuthSession } from './auth-session.js';

export async function listSessions(client: ApiClient, accountId: string, signal?: AbortSignal): Promise<AuthSession[]> {
  const path = `/auth/sessions?accountId=${encodeURIComponent(accountId)}`;
  const res = await client.request<{ data?: unknown }>({ method: 'GET', path, signal });
  const data = res.body?.data;
  if (!Array.isArray(data)) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `GET /auth/sessions returned no "data" array`,
      method: 'GET',
      path: '/auth/sessions',
    });
  }
  return data.map((item) => parseAuthSession(item, { method: 'GET', path: '/auth/sessions', status: res.status }));
}

export interface RevokeOptions {
  client: ApiClient;
  store: Store;
  sessionId: string;
  /** The profile's active session, used to sign when the target's own key is not held here. */
  activeSessionId?: string;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
  now?: () => number;
}

function liveSigner(
  store: Store,
  sessionId: string,
  activeSessionId: string | undefined,
  now: number,
): StoredSession | undefined {
  for (const id of [sessionId, activeSessionId]) {
    const s = id ? store.getSession(id) : undefined;
    if (s && !isExpired(s.expiresAt, now)) return s;
  }
  return undefined;
}

function noSigner(sessionId: string, credential: Credential): AuthRequiredError {
  return new AuthRequiredError(`No live session key is held here to sign the revocation of ${sessionId}.`, {
    reason: 'NO_LIVE_KEY',
    hint: `Log in first: ${reauthWords(credential)}.`,
    next: { action: 'log-in', ...credential },
  });
}

/**
 * Signed DELETE, then forget the local key (also clears it as a profile's active session). The
 * first call is made even when no live key is held: the service answers 204 without a challenge
 * for a session that already ended (expired or revoked), and that is a success like any other.
 * Only a 202 asking for a signature nobody here can make is an AuthRequiredError.
 */
export async function revokeSession(opts: RevokeOptions): Promise<{ signedWith?: string; keyForgotten: boolean }> {
  const { client, store, sessionId } = opts;
  const now = opts.now ?? Date.now;
  const signer = liveSigner(store, requireId('Session', sessionId, 'sessionId'), opts.activeSessionId, now());
  const held = store.getSession(sessionId);
  const path = `/auth/sessions/${sessionId}`;
  const sign = signer
    ? createStamper(signer.privateKey, signer.publicKey)
    : () => {
        throw noSigner(sessionId, { credentialId: held?.credentialId });
      };
  let res;
  try {
    res = await signedRequest(client, { method: 'DELETE', path, sign, hooks: opts.hooks, signal: opts.signal, now });
  } catch (error) {
    throw withReauth(error, { credentialId: signer?.credentialId ?? held?.credentialId });
  }
  if (res.status !== 204 && res.status !== 200) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `${path} answered ${res.status}; expected 204`,
      method: 'DELETE',
      path,
    });
  }
  store.deleteSession(sessionId);
  return { ...(signer ? { signedWith: signer.id } : {}), keyForgotten: held !== undefined };
}
