/**
 * Test hooks of a running emulator (`emulator.testing`): shortcuts past flows a test is not about
 * (a session for a known key, an expired session, a registered passkey) and the clock, acting on
 * the same state the HTTP API uses. Not part of the service.
 */
import { randomBytes } from 'node:crypto';
import { compressPublicKey as compressKey, decompressPublicKey as decompressKey } from '../crypto/keys.js';
import type { EmulatorContext } from './kernel/context.js';
import type { EmulatorFixtures } from './kernel/state.js';
import type { Table, TableDef } from './kernel/tables.js';
import { accounts } from './features/accounts/accounts.js';
import { authMethods, type AuthMethodRec } from './features/auth/credentials.js';
import { createSession, renderSession, sessions } from './features/sessions/sessions.js';
import { newId } from './kernel/ids.js';

export interface TestingHooks {
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
  /** The queued deliveries: how many attempts each has had and when (emulator time) the next one is due. */
  webhookQueue(): { id: string; type: string; attempts: number; nextAttemptAtMs: number }[];
  /**
   * Registers a PASSKEY credential without the registration ceremony (POST /auth/credentials runs
   * the real one) on the fixture account or accountId. publicKey is the passkey's P-256 key in SEC1 hex.
   */
  addPasskeyCredential(
    publicKey: string,
    opts?: { accountId?: string; nickname?: string; credentialId?: string },
  ): { id: string; credentialId: string };
  /** Moves the emulator's clock forward by ms; every timer due on the way fires first (as POST /_emulator/clock/advance). */
  advanceClock(ms: number): void;
  /** The emulator's current time, epoch ms. */
  now(): number;
  /** An area's table itself (growth tests fill one with thousands of records without the HTTP round trips). */
  table<T>(def: TableDef<T>): Table<T>;
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

export function testingHooks(emu: EmulatorContext, fixtures: EmulatorFixtures): TestingHooks {
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
    pendingWebhooks: () => emu.outbox.pendingCount(),
    webhookQueue: () =>
      emu.core.outbox.map(({ id, type, attempts, nextAttemptAtMs }) => ({ id, type, attempts, nextAttemptAtMs })),
    addPasskeyCredential(publicKey, hookOpts = {}) {
      const accountId = hookOpts.accountId ?? fixtures.accountId;
      if (!emu.table(accounts).has(accountId)) throw new Error(`no account ${accountId}`);
      const now = emu.iso();
      const credentialId = hookOpts.credentialId ?? randomBytes(16).toString('base64url');
      const method: AuthMethodRec = {
        id: newId('AuthMethod'),
        accountId,
        type: 'PASSKEY',
        nickname: hookOpts.nickname ?? 'Test passkey',
        createdAt: now,
        updatedAt: now,
        passkey: { credentialId, publicKey: decompressKey(publicKey), signCount: 0 },
      };
      emu.table(authMethods).set(method.id, method);
      return { id: method.id, credentialId };
    },
    advanceClock: (ms) => emu.clock.advance(ms),
    now: () => emu.now(),
    table: (def) => emu.table(def),
  };
}
