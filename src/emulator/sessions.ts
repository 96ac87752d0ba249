/**
 * Sessions: creation (shared by OTP verify and refresh), the AuthSession shape, the list and the
 * signed revoke. A session's key is the compressed public key whose stamps authorize the wallet.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { notFound, unauthorized } from './errors.js';
import type { Route } from './router.js';
import { signedFlow } from './signed-retry.js';
import type { AuthMethodRec, SessionRec } from './state.js';
import { Fields, ID_PATTERNS } from './validation.js';

export function renderAuthMethod(m: AuthMethodRec): Record<string, unknown> {
  return { id: m.id, accountId: m.accountId, type: m.type, nickname: m.nickname, createdAt: m.createdAt, updatedAt: m.updatedAt };
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
  init: { method: Pick<AuthMethodRec, 'id' | 'accountId' | 'type' | 'nickname'>; publicKey: string; credentialId?: string },
): SessionRec {
  const now = emu.now();
  const session: SessionRec = {
    id: `Session:${randomUUID()}`,
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
  emu.state.sessions.set(session.id, session);
  emu.indexSession(session);
  emu.changed();
  return session;
}

export function getSession(emu: EmulatorContext, id: string): SessionRec {
  const session = emu.state.sessions.get(id);
  if (!session) throw notFound('Session', id);
  return session;
}

/** 401 UNAUTHORIZED naming why the target session cannot be used. */
export function assertSessionActive(emu: EmulatorContext, session: SessionRec): void {
  if (session.revokedAtMs !== undefined) throw unauthorized(`Session ${session.id} has been revoked`);
  if (session.expiresAtMs <= emu.now()) {
    throw unauthorized(`Session ${session.id} has expired; reauthenticate with the credential (challenge, then verify)`);
  }
}

export const sessionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/auth/sessions',
    handler(req, emu) {
      const fields = new Fields(Object.fromEntries(req.query));
      const accountId = fields.string('accountId', { required: true, pattern: ID_PATTERNS.account });
      fields.done();
      if (!emu.state.accounts.has(accountId!)) throw notFound('InternalAccount', accountId!);
      const data = [...emu.state.sessions.values()]
        .filter((s) => s.accountId === accountId && emu.isSessionActive(s))
        .map((s) => renderSession(emu, s));
      return { status: 200, body: { data, hasMore: false } };
    },
  },
  {
    method: 'DELETE',
    path: '/auth/sessions/:id',
    handler(req, emu) {
      const session = getSession(emu, req.params.id!);
      return signedFlow(emu, req, {
        kind: 'revoke',
        resourceId: session.id,
        accountId: session.accountId,
        binding: '',
        bindingField: 'body',
        begin() {
          // Revoking an already revoked or expired session is a no-op, so there is nothing to sign.
          if (!emu.isSessionActive(session)) return { status: 204 };
          return { activityType: 'ACTIVITY_TYPE_DELETE_SESSION', parameters: { sessionId: session.id } };
        },
        checkTarget: () => undefined,
        async settle() {
          if (session.revokedAtMs === undefined) {
            session.revokedAtMs = emu.now();
            session.updatedAt = emu.iso();
            emu.changed();
          }
          return { status: 204 };
        },
      });
    },
  },
];
