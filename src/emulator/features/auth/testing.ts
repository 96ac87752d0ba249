/** The auth area's test hook (`emulator.testing`): a passkey credential without the registration ceremony. */
import { randomBytes } from 'node:crypto';
import { decompressPublicKey as decompressKey } from '../../../crypto/keys.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { newId } from '../../kernel/ids.js';
import { accounts } from '../accounts/accounts.js';
import { authMethods, type AuthMethodRec } from './credentials.js';

export interface AuthTestHooks {
  /**
   * Registers a PASSKEY credential without the registration ceremony (POST /auth/credentials runs
   * the real one) on the fixture account or accountId. publicKey is the passkey's P-256 key in SEC1 hex.
   */
  addPasskeyCredential(
    publicKey: string,
    opts?: { accountId?: string; nickname?: string; credentialId?: string },
  ): { id: string; credentialId: string };
}

export function authTestHooks(emu: EmulatorContext, fixtures: Fixtures<'accountId'>): AuthTestHooks {
  return {
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
  };
}
