/**
 * WebAuthn byte formats shared by the emulator (which checks registrations and assertions) and the
 * CLI's software authenticator (which makes them): authenticator data, the COSE form of a P-256
 * key, the `none` attestation object, and clientDataJSON. CBOR comes from @levischuck/tiny-cbor;
 * everything else is the W3C Web Authentication Level 2 layout (§6.1 authenticator data, §6.5
 * attestation object, §5.8.1 client data), which the service's passkey checks follow.
 */
import { createHash } from 'node:crypto';
import { decodeCBOR, decodePartialCBOR, encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import { bytesToHex, hexToBytes, isHex } from './hex.js';

/** Flags of authenticator data (§6.1). */
export const FLAG_USER_PRESENT = 0x01;
export const FLAG_USER_VERIFIED = 0x04;
export const FLAG_ATTESTED_CREDENTIAL = 0x40;

/** COSE ES256 (ECDSA P-256 with SHA-256), the only algorithm the software authenticator makes. */
const COSE_ALG_ES256 = -7;

interface AttestedCredential {
  aaguid: Buffer;
  credentialId: Buffer;
  /** The decoded COSE_Key map. */
  publicKey: Map<string | number, CBORType>;
}

export interface AuthenticatorData {
  rpIdHash: Buffer;
  flags: number;
  signCount: number;
  attested?: AttestedCredential;
}

export const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** Parses authenticator data; throws an Error whose message says what is wrong. */
export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  const data = Buffer.from(bytes);
  if (data.length < 37) throw new Error('authenticator data is shorter than 37 bytes');
  const flags = data[32]!;
  const out: AuthenticatorData = { rpIdHash: data.subarray(0, 32), flags, signCount: data.readUInt32BE(33) };
  if ((flags & FLAG_ATTESTED_CREDENTIAL) === 0) return out;
  if (data.length < 55) throw new Error('attested credential data is truncated');
  const idLength = data.readUInt16BE(53);
  const keyStart = 55 + idLength;
  if (data.length <= keyStart) throw new Error('attested credential data is truncated');
  let key: CBORType;
  let used: number;
  try {
    // A copy with its own exact-size buffer, so the decoder never sees bytes beyond the data.
    [key, used] = decodePartialCBOR(new Uint8Array(data), keyStart);
  } catch (error) {
    throw new Error(`credential public key is not CBOR: ${(error as Error).message}`);
  }
  // The decoder is lenient with a string cut short (it returns what is there): check the length.
  if (keyStart + used > data.length) throw new Error('credential public key is truncated');
  if (!(key instanceof Map)) throw new Error('credential public key is not a COSE_Key map');
  out.attested = { aaguid: data.subarray(37, 53), credentialId: data.subarray(55, keyStart), publicKey: key };
  return out;
}

export function buildAuthenticatorData(init: {
  rpId: string;
  flags: number;
  signCount: number;
  attested?: { credentialId: Uint8Array; publicKeyHex: string };
}): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(init.signCount);
  const parts: Buffer[] = [sha256(init.rpId), Buffer.from([init.flags]), counter];
  if (init.attested) {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(init.attested.credentialId.length);
    // A software authenticator has no certified model: the all-zero AAGUID, as `none` attestation allows.
    parts.push(
      Buffer.alloc(16),
      idLength,
      Buffer.from(init.attested.credentialId),
      Buffer.from(encodeCBOR(coseFromSec1(init.attested.publicKeyHex))),
    );
  }
  return Buffer.concat(parts);
}

/** COSE_Key (RFC 9053 §7.1.1) of an uncompressed P-256 key in SEC1 hex (`04` + X + Y). */
export function coseFromSec1(uncompressedHex: string): Map<number, CBORType> {
  const bytes = isHex(uncompressedHex) ? hexToBytes(uncompressedHex) : undefined;
  if (bytes?.length !== 65 || bytes[0] !== 4) throw new Error('expected an uncompressed P-256 key (04 + X + Y)');
  return new Map<number, CBORType>([
    [1, 2], // kty: EC2
    [3, COSE_ALG_ES256],
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(bytes.subarray(1, 33))],
    [-3, new Uint8Array(bytes.subarray(33, 65))],
  ]);
}

/** The SEC1 uncompressed hex of an ES256 P-256 COSE_Key; throws naming the first wrong member. */
export function sec1FromCose(key: Map<string | number, CBORType>): string {
  if (key.get(1) !== 2) throw new Error('COSE key type (1) must be EC2 (2)');
  if (key.get(3) !== COSE_ALG_ES256) throw new Error('COSE algorithm (3) must be ES256 (-7)');
  if (key.get(-1) !== 1) throw new Error('COSE curve (-1) must be P-256 (1)');
  const x = key.get(-2);
  const y = key.get(-3);
  if (!(x instanceof Uint8Array) || x.length !== 32 || !(y instanceof Uint8Array) || y.length !== 32) {
    throw new Error('COSE x (-2) and y (-3) must be 32-byte strings');
  }
  return `04${bytesToHex(x)}${bytesToHex(y)}`;
}

/** The attestation object of a `none` attestation (§8.7): {fmt: "none", attStmt: {}, authData}. */
export function noneAttestationObject(authData: Uint8Array): Buffer {
  return Buffer.from(
    encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    ),
  );
}

export interface AttestationObject {
  fmt: string;
  attStmt: Map<string | number, CBORType>;
  authData: Buffer;
}

export function parseAttestationObject(bytes: Uint8Array): AttestationObject {
  let value: CBORType;
  try {
    value = decodeCBOR(new Uint8Array(bytes));
  } catch (error) {
    throw new Error(`attestationObject is not CBOR: ${(error as Error).message}`);
  }
  if (!(value instanceof Map)) throw new Error('attestationObject is not a CBOR map');
  const fmt = value.get('fmt');
  const attStmt = value.get('attStmt');
  const authData = value.get('authData');
  if (typeof fmt !== 'string') throw new Error('attestationObject.fmt is missing');
  if (!(attStmt instanceof Map)) throw new Error('attestationObject.attStmt is missing');
  if (!(authData instanceof Uint8Array)) throw new Error('attestationObject.authData is missing');
  return { fmt, attStmt, authData: Buffer.from(authData) };
}

/** clientDataJSON bytes as a browser makes them (type, challenge, origin, crossOrigin). */
export function clientDataJson(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}
