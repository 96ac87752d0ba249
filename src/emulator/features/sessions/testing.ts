/** The sessions area's test hooks (`emulator.testing`): a session without a login, and an expired one. */
import { compressPublicKey as compressKey } from '../../../crypto/keys.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { newId } from '../../kernel/ids.js';
import { accounts } from '../accounts/accounts.js';
import { authMethods, type AuthMethodRec } from '../auth/credentials.js';
import { createSession, renderSession, sessions } from './sessions.js';

export interface SessionTestHooks {
  /** The session's expiresAt becomes now, so it is expired from here on. */
  expireSession(id: string): void;
  /**
   * A session for `publicKey` (compressed or uncompressed hex), as if verify had just succeeded:
   * on the fixture credential, on credentialId, or on accountId's first credential (an EMAIL_OTP
   * one is created when the account has none).
   */
  createSession(publicKey: string, opts?: { credentialId?: string; accountId?: string }): Record<string, unknown>;
}

function testCredential(emu: EmulatorContext, accountId: string): AuthMethodRec {
  if (!emu.table(accounts).has(accountId)) throw new Error(`no account ${accountId}`);
  const first = emu.table(authMethods).find((m) => m.accountId === accountId);
  if (first) return first;
  const now = emu.iso();
  const method: AuthMethodRec = {
    id: newId('AuthMethod'),
    accountId,
    type: 'EMAIL_OTP',
    nickname: `${accountId.slice(16, 24)}@test.invalid`,
    createdAt: now,
    updatedAt: now,
  };
  return emu.table(authMethods).set(method.id, method);
}

export function sessionTestHooks(emu: EmulatorContext, fixtures: Fixtures<'credentialId'>): SessionTestHooks {
  return {
    expireSession(id) {
      const session = emu.table(sessions).get(id);
      if (!session) throw new Error(`no session ${id}`);
      session.expiresAtMs = emu.now();
      emu.changed();
    },
    createSession(publicKey, hookOpts = {}) {
      const method = hookOpts.accountId
        ? testCredential(emu, hookOpts.accountId)
        : emu.table(authMethods).get(hookOpts.credentialId ?? fixtures.credentialId);
      if (!method) throw new Error(`no credential ${hookOpts.credentialId}`);
      const credentialId = method.passkey?.credentialId;
      return renderSession(
        emu,
        createSession(emu, { method, publicKey: compressKey(publicKey), ...(credentialId ? { credentialId } : {}) }),
      );
    },
  };
}
