/**
 * The one mapping from an AuthSession the service returned to the session kept here, and the one
 * order of storing a fresh login: the key is saved first, then the profile points at it, so a crash
 * in between leaves a usable key, not a dangling pointer. Every login (OTP, OAuth, passkey) stores
 * through storeLogin; a refresh builds its record with storedSession and orders its own steps
 * (src/auth/refresh.ts).
 */
import type { Store, StoredSession } from '../store/types.js';
import type { AuthSession } from './auth-session.js';

/** What a login or refresh ends with: the session and the key pair that signs for it. */
export interface SessionKeys {
  session: AuthSession;
  /** The session key (64 hex): store it, never print it. */
  privateKey: string;
  /** Compressed, as stamps name it. */
  publicKey: string;
}

/**
 * The record kept for `keys.session`, owned by `profile` and obtained through `credentialId`;
 * `customerId` is its wallet's owner when known (StoredSession.customerId).
 */
export function storedSession(
  keys: SessionKeys,
  profile: string,
  credentialId: string | undefined,
  now: number,
  customerId?: string,
): StoredSession {
  const { session } = keys;
  return {
    id: session.id,
    accountId: session.accountId,
    type: session.type,
    nickname: session.nickname,
    expiresAt: session.expiresAt,
    privateKey: keys.privateKey,
    publicKey: keys.publicKey,
    profile,
    credentialId,
    createdAt: session.createdAt ?? new Date(now).toISOString(),
    ...(customerId !== undefined && { customerId }),
  };
}

export function storeLogin(
  store: Store,
  profileName: string,
  credentialId: string,
  result: SessionKeys,
  now: number,
  customerId?: string,
): void {
  store.saveSession(storedSession(result, profileName, credentialId, now, customerId));
  store.setProfile(profileName, { activeSessionId: result.session.id });
}
