/**
 * Storing a fresh login: the key is saved first, then the profile points at it, so a crash in
 * between leaves a usable key, not a dangling pointer (the same order as the OTP login).
 */
import type { Store } from '../store/types.js';
import type { LoginResult } from './sealed-login.js';

export function storeLogin(store: Store, profileName: string, credentialId: string, result: LoginResult, now: number): void {
  const { session } = result;
  store.saveSession({
    id: session.id,
    accountId: session.accountId,
    type: session.type,
    nickname: session.nickname,
    expiresAt: session.expiresAt,
    privateKey: result.privateKey,
    publicKey: result.publicKey,
    profile: profileName,
    credentialId,
    createdAt: session.createdAt ?? new Date(now).toISOString(),
  });
  store.setProfile(profileName, { activeSessionId: session.id });
}
