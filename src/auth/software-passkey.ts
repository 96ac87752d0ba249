/**
 * A software WebAuthn authenticator for sandboxes and CI: a P-256 (ES256) credential whose private
 * key lives in the store like a session key. It makes the two ceremonies a browser would: a
 * registration (`none` attestation) and assertions with an increasing signature counter. It is
 * exactly as strong as the file that holds it, so it is for test wallets only.
 */
import { randomBytes } from 'node:crypto';
import { p256 } from '../crypto/curve.js';
import { generateKeyPair, privateKeyBytes, publicKeyFromPrivate } from '../crypto/keys.js';
import {
  FLAG_ATTESTED_CREDENTIAL,
  FLAG_USER_PRESENT,
  FLAG_USER_VERIFIED,
  buildAuthenticatorData,
  clientDataJson,
  noneAttestationObject,
  sha256,
} from '../crypto/webauthn.js';

/** The relying party a passkey is bound to: its id (a host name) and the origin the "browser" reports. */
export interface RelyingParty {
  rpId: string;
  origin: string;
}

/** The emulator's relying party (any http(s) origin on localhost). */
export const LOCAL_RELYING_PARTY: RelyingParty = { rpId: 'localhost', origin: 'http://localhost' };

export interface SoftwarePasskey extends RelyingParty {
  /** base64url of the raw credential id. */
  credentialId: string;
  /** 64 hex; never printed. */
  privateKey: string;
  signCount: number;
}

export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

function sign(privateKey: string, authData: Buffer, clientData: Buffer): Buffer {
  const signed = Buffer.concat([authData, sha256(clientData)]);
  return Buffer.from(p256.sign(signed, privateKeyBytes(privateKey), { format: 'der' }));
}

export function createSoftwarePasskey(rp: RelyingParty = LOCAL_RELYING_PARTY): SoftwarePasskey {
  return { ...rp, credentialId: b64url(randomBytes(16)), privateKey: generateKeyPair().privateKey, signCount: 0 };
}

/** The credential's public key, uncompressed SEC1 hex (what the server stores). */
export function passkeyPublicKey(passkey: SoftwarePasskey): string {
  return publicKeyFromPrivate(passkey.privateKey, { uncompressed: true });
}

/**
 * The registration ceremony (navigator.credentials.create) for a base64url challenge from the
 * platform: clientData carries the challenge as is, the authenticator data the new credential.
 */
export function attestPasskey(passkey: SoftwarePasskey, challenge: string): PasskeyAttestation {
  const clientData = clientDataJson('webauthn.create', challenge, passkey.origin);
  const authData = buildAuthenticatorData({
    rpId: passkey.rpId,
    flags: FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL,
    signCount: passkey.signCount,
    attested: { credentialId: Buffer.from(passkey.credentialId, 'base64url'), publicKeyHex: passkeyPublicKey(passkey) },
  });
  return {
    credentialId: passkey.credentialId,
    clientDataJson: b64url(clientData),
    attestationObject: b64url(noneAttestationObject(authData)),
    transports: ['internal'],
  };
}

/**
 * The authentication ceremony (navigator.credentials.get) for the service's passkey challenge. The
 * challenge is a hex string whose UTF-8 bytes are the WebAuthn challenge (the description's rule),
 * so clientData carries their base64url. Returns the assertion and the counter to store next.
 */
export function assertPasskey(
  passkey: SoftwarePasskey,
  challenge: string,
): { assertion: PasskeyAssertion; signCount: number } {
  const signCount = passkey.signCount + 1;
  const clientData = clientDataJson('webauthn.get', b64url(Buffer.from(challenge, 'utf8')), passkey.origin);
  const authData = buildAuthenticatorData({
    rpId: passkey.rpId,
    flags: FLAG_USER_PRESENT | FLAG_USER_VERIFIED,
    signCount,
  });
  return {
    assertion: {
      credentialId: passkey.credentialId,
      clientDataJson: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(sign(passkey.privateKey, authData, clientData)),
    },
    signCount,
  };
}

/** A fresh base64url registration challenge, as a platform backend issues one. */
export function registrationChallenge(): string {
  return b64url(randomBytes(32));
}
