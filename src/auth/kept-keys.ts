/**
 * The two kinds of key a login keeps besides session keys: software passkeys (registered as a
 * software passkey credential, used by a passkey login) and the pending OAuth client key (made when
 * an OAuth login asks for its nonce, used by the later call that brings the token).
 */
import { StoreError } from '../store/errors.js';
import { keyFolder, requireFields, type KeyFolder } from '../store/key-folder.js';
import type { SoftwarePasskey } from './software-passkey.js';

const HEX64 = /^[0-9a-fA-F]{64}$/;
const AUTH_METHOD = /^AuthMethod:/;

/** A software passkey with the credential it was registered as. `id` is the AuthMethod id. */
export interface StoredPasskey extends SoftwarePasskey {
  id: string;
  accountId: string;
  nickname: string;
  profile: string;
}

/** The client key an OAuth login binds into the token's nonce. `id` is the AuthMethod id. */
export interface PendingOauthKey {
  id: string;
  privateKey: string;
  publicKey: string;
  nonce: string;
  createdAt: string;
}

export function passkeyFolder(storeDir: string): KeyFolder<StoredPasskey> {
  return keyFolder(storeDir, 'passkeys', (raw, file) => {
    requireFields(raw, file, {
      id: AUTH_METHOD,
      privateKey: HEX64,
      credentialId: /^[A-Za-z0-9_-]+$/,
      rpId: /./,
      origin: /./,
    });
    if (!Number.isSafeInteger(raw.signCount))
      throw new StoreError(file, `The key file ${file} is corrupt: "signCount" is not a whole number`);
    return raw as unknown as StoredPasskey;
  });
}

export function pendingOauthFolder(storeDir: string): KeyFolder<PendingOauthKey> {
  return keyFolder(storeDir, 'pending-oauth', (raw, file) => {
    requireFields(raw, file, { id: AUTH_METHOD, privateKey: HEX64, nonce: HEX64 });
    return raw as unknown as PendingOauthKey;
  });
}
