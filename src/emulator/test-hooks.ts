/**
 * Test hooks of a running emulator: shortcuts past flows a test is not about (a session for a
 * known key, an expired session, a registered passkey), acting on the same state the HTTP API uses.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { compressPublicKey as compressKey, decompressPublicKey as decompressKey } from '../crypto/keys.js';
import type { EmulatorContext } from './context.js';
import { createSession, renderSession } from './sessions.js';
import type { AuthMethodRec, EmulatorFixtures } from './state.js';

export interface TestHooks {
  /** The session's expiresAt becomes now, so it is expired from here on. */
  expireSession(id: string): void;
  /**
   * A session for `publicKey` (compressed or uncompressed hex), as if verify had just succeeded:
   * on the fixture credential, on credentialId, or on accountId's first credential (an EMAIL_OTP
   * one is created when the account has none).
   */
  createSession(publicKey: string, opts?: { credentialId?: string; accountId?: string }): Record<string, unknown>;
  /** Webhook deliveries still queued (not yet acknowledged with 2xx/409). */
  pendingWebhooks(): number;
  /**
   * Registers a PASSKEY credential (registration ceremonies are not emulated) on the fixture
   * account or accountId. publicKey is the passkey's P-256 key in SEC1 hex.
   */
  addPasskeyCredential(publicKey: string, opts?: { accountId?: string; nickname?: string; credentialId?: string }): { id: string; credentialId: string };
}

function testCredential(emu: EmulatorContext, accountId: string): AuthMethodRec {
  if (!emu.state.accounts.has(accountId)) throw new Error(`no account ${accountId}`);
  for (const m of emu.state.authMethods.values()) if (m.accountId === accountId) return m;
  const now = emu.iso();
  const method: AuthMethodRec = { id: `AuthMethod:${randomUUID()}`, accountId, type: 'EMAIL_OTP', nickname: `${accountId.slice(16, 24)}@test.invalid`, createdAt: now, updatedAt: now };
  emu.state.authMethods.set(method.id, method);
  return method;
}

export function testHooks(emu: EmulatorContext, fixtures: EmulatorFixtures): TestHooks {
  const { state } = emu;
  return {
    expireSession(id) {
      const session = state.sessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      session.expiresAtMs = emu.now();
      emu.changed();
    },
    createSession(publicKey, hookOpts = {}) {
      const method = hookOpts.accountId
        ? testCredential(emu, hookOpts.accountId)
        : state.authMethods.get(hookOpts.credentialId ?? fixtures.credentialId);
      if (!method) throw new Error(`no credential ${hookOpts.credentialId}`);
      const credentialId = method.passkey?.credentialId;
      return renderSession(emu, createSession(emu, { method, publicKey: compressKey(publicKey), ...(credentialId ? { credentialId } : {}) }));
    },
    pendingWebhooks: () => emu.outbox.pendingCount(),
    addPasskeyCredential(publicKey, hookOpts = {}) {
      const accountId = hookOpts.accountId ?? fixtures.accountId;
      if (!state.accounts.has(accountId)) throw new Error(`no account ${accountId}`);
      const now = emu.iso();
      const credentialId = hookOpts.credentialId ?? randomBytes(16).toString('base64url');
      const method: AuthMethodRec = {
        id: `AuthMethod:${randomUUID()}`, accountId, type: 'PASSKEY', nickname: hookOpts.nickname ?? 'Test passkey', createdAt: now, updatedAt: now,
        passkey: { credentialId, publicKey: decompressKey(publicKey), signCount: 0 },
      };
      state.authMethods.set(method.id, method);
      emu.changed();
      return { id: method.id, credentialId };
    },
  };
}
