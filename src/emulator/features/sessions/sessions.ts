/**
 * Sessions: creation (shared by credential verify and refresh), the AuthSession shape, and the
 * index from a session's key to its sessions. A session's key is the compressed public key whose
 * stamps authorize the wallet.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound, unauthorized } from '../../kernel/errors.js';
import { durableTable, memoryTable, tableIndex } from '../../kernel/tables.js';
import type { AuthMethodRec, AuthMethodType } from '../auth/credentials.js';
import { newId } from '../../kernel/ids.js';

export interface SessionRec {
  id: string;
  accountId: string;
  authMethodId: string;
  type: AuthMethodType;
  nickname: string;
  /** Compressed SEC1 hex of the session's API key: stamps made by it authorize wallet actions. */
  publicKey: string;
  /** PASSKEY sessions: the WebAuthn credential id (AuthSession.credentialId). */
  credentialId?: string;
  createdAt: string;
  updatedAt: string;
  expiresAtMs: number;
  revokedAtMs?: number;
}

export const sessions = durableTable<SessionRec>('sessions', {
  id: 'string',
  accountId: 'string',
  authMethodId: 'string',
  type: 'string',
  nickname: 'string',
  publicKey: 'string',
  credentialId: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
  expiresAtMs: 'number',
  revokedAtMs: 'number?',
});
export const sessionsByAccount = tableIndex<SessionRec>((s) => s.accountId);
export const sessionsByCredential = tableIndex<SessionRec>((s) => s.authMethodId);
/** Session public key → ids of its sessions, so a stamp's key is authorized without a scan. */
export const sessionKeys = memoryTable<Set<string>>('sessionKeys');

export function indexSession(emu: EmulatorContext, session: SessionRec): void {
  const index = emu.table(sessionKeys);
  let ids = index.get(session.publicKey);
  if (!ids) index.set(session.publicKey, (ids = new Set()));
  ids.add(session.id);
}

export function isSessionActive(emu: EmulatorContext, session: SessionRec): boolean {
  return session.revokedAtMs === undefined && session.expiresAtMs > emu.now();
}

/** True when publicKey (compressed hex) is the key of an active session of accountId (not one made by excludedCredential). */
export function keyHasActiveSession(
  emu: EmulatorContext,
  publicKey: string,
  accountId: string,
  excludedCredential?: string,
): boolean {
  for (const id of emu.table(sessionKeys).get(publicKey) ?? []) {
    const session = emu.table(sessions).get(id);
    if (
      session &&
      session.accountId === accountId &&
      session.authMethodId !== excludedCredential &&
      isSessionActive(emu, session)
    )
      return true;
  }
  return false;
}

/** AuthSession: AuthMethod fields plus the session's own (never encryptedSessionSigningKey here). */
export function renderSession(emu: EmulatorContext, s: SessionRec): Record<string, unknown> {
  return {
    id: s.id,
    accountId: s.accountId,
    type: s.type,
    ...(s.credentialId ? { credentialId: s.credentialId } : {}),
    nickname: s.nickname,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    expiresAt: emu.iso(s.expiresAtMs),
  };
}

export function createSession(
  emu: EmulatorContext,
  init: {
    method: Pick<AuthMethodRec, 'id' | 'accountId' | 'type' | 'nickname'>;
    publicKey: string;
    credentialId?: string;
  },
): SessionRec {
  const now = emu.now();
  const session: SessionRec = {
    id: newId('Session'),
    accountId: init.method.accountId,
    authMethodId: init.method.id,
    type: init.method.type,
    nickname: init.method.nickname,
    publicKey: init.publicKey.toLowerCase(),
    ...(init.credentialId ? { credentialId: init.credentialId } : {}),
    createdAt: emu.iso(now),
    updatedAt: emu.iso(now),
    expiresAtMs: now + emu.opts.sessionTtlMs,
  };
  emu.table(sessions).set(session.id, session);
  indexSession(emu, session);
  return session;
}

export function getSession(emu: EmulatorContext, id: string): SessionRec {
  const session = emu.table(sessions).get(id);
  if (!session) throw notFound('Session', id);
  return session;
}

/** 401 UNAUTHORIZED naming why the target session cannot be used. */
export function assertSessionActive(emu: EmulatorContext, session: SessionRec): void {
  if (session.revokedAtMs !== undefined) throw unauthorized(`Session ${session.id} has been revoked`);
  if (session.expiresAtMs <= emu.now()) {
    throw unauthorized(
      `Session ${session.id} has expired; reauthenticate with the credential (challenge, then verify)`,
    );
  }
}
