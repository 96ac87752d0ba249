/**
 * ECDSA P-256 SHA-256 verification through node:crypto (OpenSSL), shared by stamps and target
 * bundles. OpenSSL verifies far faster than @noble's pure-JS code (test/bench/crypto.mjs), and it
 * accepts high-S signatures, which the provider's enclaves and HSMs may produce. Signing stays in
 * @noble (stamp.ts) because stamps must be RFC 6979 deterministic, which node:crypto cannot do.
 */
import { createPublicKey, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { p256 } from './curve.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { CLIENT_PUBLIC_KEY_PATTERN } from './keys.js';

// SubjectPublicKeyInfo headers for id-ecPublicKey/prime256v1 with a 33- or 65-byte point: the
// only way to hand node:crypto a raw SEC1 point without converting it to JWK coordinates.
const SPKI_PREFIX_COMPRESSED = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');
const SPKI_PREFIX_UNCOMPRESSED = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/** A parsed, on-curve public key ready for node:crypto, plus its compressed hex for reporting. */
export interface VerifyingKey {
  key: KeyObject;
  /** 02/03 form, lowercase: how the key is reported back. */
  compressed: string;
}

// Verifiers see the same few session keys over and over; parsing a point costs more than the
// verification itself, so keep the most recent ones (bounded, insertion order = age).
const CACHE_LIMIT = 256;
const cache = new Map<string, VerifyingKey>();

/** A SEC1 hex public key (either form, any case) as a verifying key, or undefined if it is not one. */
export function verifyingKey(publicKeyHex: string): VerifyingKey | undefined {
  const hit = cache.get(publicKeyHex);
  // Stryker disable next-line ConditionalExpression: without the cache every answer is the same, only slower.
  if (hit) return hit;
  if (!CLIENT_PUBLIC_KEY_PATTERN.test(publicKeyHex)) return undefined;
  const point = hexToBytes(publicKeyHex);
  let key: KeyObject;
  try {
    // OpenSSL checks the point is on the curve and refuses it otherwise.
    const prefix = point.length === 33 ? SPKI_PREFIX_COMPRESSED : SPKI_PREFIX_UNCOMPRESSED;
    key = createPublicKey({ key: Buffer.concat([prefix, point]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
  const compressed =
    point.length === 33
      ? bytesToHex(point)
      : ((point[64]! & 1) === 1 ? '03' : '02') + bytesToHex(point.subarray(1, 33));
  const entry = { key, compressed };
  // Stryker disable next-line all: the bound changes how much memory the cache holds, never an answer.
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(publicKeyHex, entry);
  return entry;
}

/** DER hex → bytes when it is strict DER with r and s in [1, n-1]; undefined otherwise. */
export function derSignatureBytes(derHex: string): Uint8Array | undefined {
  try {
    // Strict hex of either case (noble refuses odd lengths and other characters), DER structure, r and s in range.
    p256.Signature.fromHex(derHex, 'der');
  } catch {
    return undefined;
  }
  return hexToBytes(derHex);
}

/** True when der is a valid signature (low- or high-S) of message by key. */
export function verifyDer(der: Uint8Array, message: Uint8Array, key: VerifyingKey): boolean {
  try {
    return nodeVerify('sha256', message, { key: key.key, dsaEncoding: 'der' }, der);
  } catch {
    return false;
  }
}
