/**
 * Passkey challenge and verify. The challenge returns {challenge, credentialId, requestId, expiresAt} (plus
 * the AuthMethod fields) and remembers the clientPublicKey it may carry; verify takes the assertion
 * with that requestId in the Request-Id header, checks it (webauthn.ts) or accepts the legacy
 * sandbox signature `sandbox-valid-passkey-signature` (which skips the WebAuthn checks but not the
 * credential id), and answers 200 AuthSession with a fresh session key sealed to clientPublicKey
 * in encryptedSessionSigningKey. Each challenge is good for one verify. The challenge is the
 * lowercase SHA-256 hex of the canonical session-creation body (the description's form); a client
 * may hand either its UTF-8 bytes or its base64url decoding to the authenticator (webauthn.ts).
 * Registration is register.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sealSessionSigningKey } from '../../../crypto/bundles.js';
import { CLIENT_PUBLIC_KEY_PATTERN, generateKeyPair } from '../../../crypto/keys.js';
import { LEGACY_PASSKEY_SIGNATURE } from '../../../service/auth-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { invalidInput, signatureError, unauthorized } from '../../kernel/errors.js';
import { CLIENT_PUBLIC_KEY_RULES, type Fields } from '../../kernel/fields.js';
import type { Reply, Req } from '../../kernel/router.js';
import { memoryTable } from '../../kernel/tables.js';
import { createSession, renderSession } from '../sessions/sessions.js';
import { renderAuthMethod, type AuthMethodRec } from './credentials.js';
import { verifyAssertion, type Assertion } from './webauthn.js';
import { newId } from '../../kernel/ids.js';

export interface PasskeyChallenge {
  authMethodId: string;
  challenge: string;
  clientPublicKey?: string;
  expiresAtMs: number;
}

/** Passkey challenges by requestId (one verify each). */
export const passkeyChallenges = memoryTable<PasskeyChallenge>('passkeyChallenges');

export function passkeyChallenge(
  emu: EmulatorContext,
  method: AuthMethodRec,
  clientPublicKey: string | undefined,
): Reply {
  const requestId = newId('Request');
  // The body the session would be created from, with a random salt so that no two challenges match.
  const creation = JSON.stringify({
    authMethodId: method.id,
    clientPublicKey: clientPublicKey ?? null,
    requestId,
    salt: randomBytes(16).toString('hex'),
  });
  const challenge = createHash('sha256').update(creation, 'utf8').digest('hex');
  const expiresAtMs = emu.now() + emu.opts.challengeTtlMs;
  emu.table(passkeyChallenges).set(requestId, {
    authMethodId: method.id,
    challenge,
    ...(clientPublicKey ? { clientPublicKey } : {}),
    expiresAtMs,
  });
  const credentialId = method.passkey!.credentialId;
  return {
    status: 200,
    body: { ...renderAuthMethod(method), challenge, credentialId, requestId, expiresAt: emu.iso(expiresAtMs) },
  };
}

export async function passkeyVerify(
  emu: EmulatorContext,
  req: Req,
  method: AuthMethodRec,
  fields: Fields,
): Promise<Reply> {
  // The assertion and its four fields are required by the description, checked before this runs;
  // the limits are bounds on what is read.
  const a = fields.object('assertion');
  const assertion = {
    credentialId: a?.string('credentialId'),
    clientDataJson: a?.string('clientDataJson', { maxLength: 8192 }),
    authenticatorData: a?.string('authenticatorData', { maxLength: 8192 }),
    signature: a?.string('signature', { maxLength: 4096 }),
  } as Assertion;
  const bodyKey = fields.string('clientPublicKey', CLIENT_PUBLIC_KEY_RULES);
  fields.done();

  const requestId = req.header('request-id');
  if (!requestId)
    throw signatureError('REQUEST_ID_MISSING', 'Request-Id (the requestId of the passkey challenge) is required');
  const pending = emu.table(passkeyChallenges).get(requestId);
  if (!pending || pending.authMethodId !== method.id)
    throw unauthorized('Request-Id does not match a pending passkey challenge of this credential');
  if (pending.expiresAtMs <= emu.now()) {
    emu.table(passkeyChallenges).delete(requestId);
    throw unauthorized('The passkey challenge has expired; request a new one');
  }
  const clientPublicKey = bodyKey ?? pending.clientPublicKey;
  if (!clientPublicKey) {
    // Bad input, not a failed ceremony: the challenge stays usable for a corrected request.
    throw invalidInput([
      {
        field: 'clientPublicKey',
        constraint: { pattern: CLIENT_PUBLIC_KEY_PATTERN.source },
        message: 'clientPublicKey is required on the challenge or on verify: the session key is sealed to it',
      },
    ]);
  }
  emu.table(passkeyChallenges).delete(requestId);

  const passkey = method.passkey!;
  if (assertion.credentialId !== passkey.credentialId)
    throw unauthorized('assertion.credentialId is not the passkey registered for this credential');
  if (assertion.signature !== LEGACY_PASSKEY_SIGNATURE) {
    passkey.signCount = verifyAssertion(assertion, {
      challenge: pending.challenge,
      publicKey: passkey.publicKey,
      signCount: passkey.signCount,
    });
  }
  const fresh = generateKeyPair();
  const encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey, fresh.privateKey);
  const session = createSession(emu, { method, publicKey: fresh.publicKey, credentialId: passkey.credentialId });
  return { status: 200, body: { ...renderSession(emu, session), encryptedSessionSigningKey } };
}
