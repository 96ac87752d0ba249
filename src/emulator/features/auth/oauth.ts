/**
 * OAuth verify: one call `{type, oidcToken, clientPublicKey}` → 200 AuthSession. The fresh token
 * must name the registered iss/aud/sub, be fresh, and carry nonce = SHA-256 hex of the exact
 * clientPublicKey sent. The key's form picks the model (spec Authentication 4, as on refresh): a
 * compressed key is the new session's own key, held by the client, and no key material comes back;
 * an uncompressed one (the deprecated sealed-key flow) gets a fresh session key sealed to it in
 * encryptedSessionSigningKey. It is also the way back in after a session expired.
 */
import { sealSessionSigningKey } from '../../../crypto/bundles.js';
import { generateKeyPair } from '../../../crypto/keys.js';
import { CLIENT_PUBLIC_KEY_RULES, type Fields } from '../../kernel/fields.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Reply } from '../../kernel/router.js';
import { createSession, renderSession } from '../sessions/sessions.js';
import type { AuthMethodRec } from './credentials.js';
import { checkVerifyToken, parseOidcToken } from './oidc.js';

export async function oauthVerify(emu: EmulatorContext, method: AuthMethodRec, fields: Fields): Promise<Reply> {
  // Both are required by the description, checked before this runs; the key's form is the spec's.
  const token = fields.string('oidcToken', { maxLength: 16_384 });
  const clientPublicKey = fields.string('clientPublicKey', CLIENT_PUBLIC_KEY_RULES)!;
  fields.done();
  const claims = parseOidcToken(token!);
  checkVerifyToken(claims, method.oauth!, clientPublicKey, emu.now());
  if (clientPublicKey.length === 66) {
    const session = createSession(emu, { method, publicKey: clientPublicKey });
    return { status: 200, body: renderSession(emu, session) };
  }
  const fresh = generateKeyPair();
  const encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey, fresh.privateKey);
  const session = createSession(emu, { method, publicKey: fresh.publicKey });
  return { status: 200, body: { ...renderSession(emu, session), encryptedSessionSigningKey } };
}
