/**
 * WebAuthn checks, as the spec lists them for passkeys: registered credential id, challenge,
 * origin and relying-party binding, user presence, signature and signature counter; and, for
 * registration, a `none` (or self-`packed`) attestation whose authenticator data carries the new
 * credential's P-256 key. The relying party is `localhost` (any http(s) origin on that host), the
 * one a browser grants a local page. Every failure is 401 UNAUTHORIZED with the failed check as
 * `reason`. Byte formats live in src/crypto/webauthn.ts, shared with the CLI's authenticator.
 */
import { verify as nodeVerify } from 'node:crypto';
import { publicKeyObject, validateClientPublicKey } from '../../../crypto/keys.js';
import {
  FLAG_USER_PRESENT,
  parseAttestationObject,
  parseAuthenticatorData,
  sec1FromCose,
  sha256,
  type AuthenticatorData,
} from '../../../crypto/webauthn.js';
import { unauthorized } from '../../kernel/errors.js';

export const RP_ID = 'localhost';
const RP_ID_HASH = sha256(RP_ID);
const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export interface Assertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
}

export interface Attestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
}

function decode(where: string, field: string, value: string): Buffer {
  if (!B64URL.test(value)) throw unauthorized(`${where}.${field} is not base64url`);
  return Buffer.from(value, 'base64url');
}

function originIsLocal(origin: unknown): boolean {
  if (typeof origin !== 'string' || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname === RP_ID;
}

/**
 * The clientDataJSON checks both ceremonies share. `challenges` holds the accepted forms: a client
 * may pass the issued string's UTF-8 bytes to the authenticator (clientData then carries their
 * base64url) or decode it as base64url (clientData then carries the string itself).
 */
function checkClientData(where: string, encoded: string, type: string, challenges: readonly string[]): Buffer {
  const bytes = decode(where, 'clientDataJson', encoded);
  let clientData: { type?: unknown; challenge?: unknown; origin?: unknown };
  try {
    clientData = JSON.parse(bytes.toString('utf8')) as typeof clientData;
  } catch {
    throw unauthorized(`${where}.clientDataJson is not JSON`);
  }
  if (clientData.type !== type) throw unauthorized(`clientDataJson.type must be ${type}`);
  // includes() compares strictly, so a challenge of any other type matches none.
  if (!(challenges as readonly unknown[]).includes(clientData.challenge)) {
    throw unauthorized('clientDataJson.challenge does not match the challenge issued');
  }
  if (!originIsLocal(clientData.origin))
    throw unauthorized(`clientDataJson.origin must be an origin of the relying party ${RP_ID}`);
  return bytes;
}

function checkRelyingParty(authData: AuthenticatorData): void {
  if (!authData.rpIdHash.equals(RP_ID_HASH))
    throw unauthorized(`authenticatorData is not bound to the relying party ${RP_ID}`);
  if ((authData.flags & FLAG_USER_PRESENT) === 0) throw unauthorized('authenticatorData lacks the user-presence flag');
}

function signatureVerifies(publicKeyHex: string, signed: Buffer, signature: Buffer): boolean {
  let verified = false;
  try {
    verified = nodeVerify('sha256', signed, { key: publicKeyObject(publicKeyHex), dsaEncoding: 'der' }, signature);
  } catch {
    // A stored key or a signature that cannot be read verifies nothing.
  }
  return verified;
}

/** Checks an assertion against the challenge and the registered key; returns the new sign count. */
export function verifyAssertion(
  a: Assertion,
  expected: { challenge: string; publicKey: string; signCount: number },
): number {
  const challenges = [expected.challenge, Buffer.from(expected.challenge).toString('base64url')];
  const clientDataBytes = checkClientData('assertion', a.clientDataJson, 'webauthn.get', challenges);
  const authDataBytes = decode('assertion', 'authenticatorData', a.authenticatorData);
  let authData: AuthenticatorData;
  try {
    authData = parseAuthenticatorData(authDataBytes);
  } catch (error) {
    throw unauthorized(`assertion.authenticatorData: ${(error as Error).message}`);
  }
  checkRelyingParty(authData);
  const { signCount } = authData;
  // An authenticator that keeps no counter sends 0 every time: allowed while the stored count is 0 too.
  if (expected.signCount !== 0 && signCount <= expected.signCount) {
    throw unauthorized('The signature counter did not increase (possible cloned authenticator)');
  }
  const signed = Buffer.concat([authDataBytes, sha256(clientDataBytes)]);
  if (!signatureVerifies(expected.publicKey, signed, decode('assertion', 'signature', a.signature))) {
    throw unauthorized('The assertion signature does not verify with the registered passkey');
  }
  return signCount;
}

/** A checked registration: the credential's key (SEC1 uncompressed hex) and its starting counter. */
export interface RegisteredPasskey {
  credentialId: string;
  publicKey: string;
  signCount: number;
}

/**
 * Checks a registration: clientData (webauthn.create, the platform's challenge, a local origin),
 * the attestation object (`none`, or `packed` self-attestation signed by the new key), the
 * relying-party hash, user presence, and that the attested credential is the credentialId sent
 * with an ES256 P-256 key.
 */
export function verifyAttestation(a: Attestation, challenge: string): RegisteredPasskey {
  const clientDataBytes = checkClientData('attestation', a.clientDataJson, 'webauthn.create', [challenge]);
  const objectBytes = decode('attestation', 'attestationObject', a.attestationObject);
  let authData: AuthenticatorData;
  let object: ReturnType<typeof parseAttestationObject>;
  try {
    object = parseAttestationObject(objectBytes);
    authData = parseAuthenticatorData(object.authData);
  } catch (error) {
    throw unauthorized(`attestation.attestationObject: ${(error as Error).message}`);
  }
  checkRelyingParty(authData);
  // The parser reads an attested credential exactly when the AT flag is set.
  if (!authData.attested) {
    throw unauthorized('authenticatorData carries no attested credential (AT flag unset)');
  }
  const credentialId = decode('attestation', 'credentialId', a.credentialId);
  if (!authData.attested.credentialId.equals(credentialId)) {
    throw unauthorized('attestation.credentialId is not the credential id in the authenticator data');
  }
  let publicKey: string;
  try {
    publicKey = validateClientPublicKey(sec1FromCose(authData.attested.publicKey), 'credentialPublicKey');
  } catch (error) {
    throw unauthorized(`credential public key: ${(error as Error).message}`);
  }
  checkStatement(object, publicKey, Buffer.concat([object.authData, sha256(clientDataBytes)]));
  return { credentialId: credentialId.toString('base64url'), publicKey, signCount: authData.signCount };
}

function checkStatement(object: ReturnType<typeof parseAttestationObject>, publicKey: string, signed: Buffer): void {
  if (object.fmt === 'none') {
    if (object.attStmt.size !== 0) throw unauthorized('attStmt must be empty for fmt none');
    return;
  }
  if (object.fmt === 'packed' && !object.attStmt.has('x5c')) {
    const sig = object.attStmt.get('sig');
    if (object.attStmt.get('alg') !== -7 || !(sig instanceof Uint8Array))
      throw unauthorized('packed self-attestation needs alg -7 and sig');
    if (!signatureVerifies(publicKey, signed, Buffer.from(sig)))
      throw unauthorized('The packed self-attestation signature does not verify');
    return;
  }
  throw unauthorized(
    `Attestation format ${object.fmt} is not accepted by the sandbox (use none or packed self-attestation)`,
  );
}
