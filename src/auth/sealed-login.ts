/**
 * The end of an OAuth or passkey login: the AuthSession carries encryptedSessionSigningKey sealed to
 * the clientPublicKey we sent (spec "Auth magic values"); its plaintext is the session key. The
 * result is what the store keeps; the client key is thrown away.
 */
import { decryptSessionSigningKey } from '../crypto/bundles.js';
import { publicKeyFromPrivate, validatePrivateKey } from '../crypto/keys.js';
import { ApiError, UsageError, VerificationError } from '../errors.js';
import { parseAuthSession } from './auth-session.js';
import type { SessionKeys } from './store-login.js';

/** The session and its key, as every login ends (src/auth/store-login.ts stores it). */
export type LoginResult = SessionKeys;

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
