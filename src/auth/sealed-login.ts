/**
 * The end of an OAuth or passkey login. Either the AuthSession carries encryptedSessionSigningKey
 * sealed to the clientPublicKey we sent (the sealed-key flow: spec "Auth magic values", and always
 * for an uncompressed key), whose plaintext is the session key; or it carries none and our key was
 * compressed (the client-held-key model, spec Authentication 4): our key is the session key. The
 * result is what the store keeps.
 */
import { decryptSessionSigningKey } from '../crypto/bundles.js';
import { isCompressedPublicKey, publicKeyFromPrivate, validatePrivateKey, type KeyPair } from '../crypto/keys.js';
import { ApiError, UsageError, VerificationError } from '../errors.js';
import { parseAuthSession } from './auth-session.js';
import type { SessionKeys } from './store-login.js';

/** The session and its key, as every login ends (src/auth/store-login.ts stores it). */
export type LoginResult = SessionKeys;

/** The session and its key from a verify answer, whichever model the service chose for our key. */
export async function loginSession(
  body: unknown,
  clientKey: KeyPair,
  ctx: { method: string; path: string; status: number },
): Promise<LoginResult> {
  const session = parseAuthSession(body, ctx);
  if (session.encryptedSessionSigningKey === undefined && isCompressedPublicKey(clientKey.publicKey))
    return { session, privateKey: clientKey.privateKey, publicKey: clientKey.publicKey };
  return openSealedSession(body, clientKey.privateKey, ctx);
}

/** The sealed-key flow alone: the session key is the plaintext of encryptedSessionSigningKey. */
export async function openSealedSession(
  body: unknown,
  clientPrivateKey: string,
  ctx: { method: string; path: string; status: number },
): Promise<LoginResult> {
  const session = parseAuthSession(body, ctx);
  if (typeof session.encryptedSessionSigningKey !== 'string') {
    throw new ApiError({
      ...ctx,
      code: 'INVALID_RESPONSE',
      message: `${ctx.method} ${ctx.path} returned no encryptedSessionSigningKey to open`,
    });
  }
  const plaintext = await decryptSessionSigningKey(session.encryptedSessionSigningKey, clientPrivateKey);
  let privateKey: string;
  try {
    privateKey = validatePrivateKey(plaintext, 'encryptedSessionSigningKey');
  } catch (error) {
    if (error instanceof UsageError)
      throw new VerificationError('encryptedSessionSigningKey did not decrypt to a P-256 private key');
    throw error;
  }
  return { session, privateKey, publicKey: publicKeyFromPrivate(privateKey) };
}
