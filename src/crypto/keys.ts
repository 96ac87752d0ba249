/**
 * P-256 key handling in SEC1 hex, the only key encoding on the wire (README.md "Keys").
 * Private keys are 64 hex; public keys are 02/03+X (66 hex) or 04+X+Y (130 hex).
 * Validation errors are UsageErrors naming the caller's input and a reason, and never repeat a
 * private key's value.
 */
import { createECDH, createPublicKey, type KeyObject } from 'node:crypto';
import { p256 } from './curve.js';
import { UsageError } from '../errors.js';
import { bytesToHex, hexToBytes } from './hex.js';

/** The spec's clientPublicKey pattern: SEC1 hex, compressed (02/03 + X) or uncompressed (04 + X + Y). */
export const CLIENT_PUBLIC_KEY_PATTERN = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
const PRIVATE_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;

/** A P-256 key pair in hex: the 32-byte scalar (64 hex) and the SEC1 public key. */
export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

type Point = ReturnType<typeof p256.Point.fromHex>;

/**
 * A fresh key pair from the OS CSPRNG; the public key is compressed unless asked otherwise.
 * OpenSSL makes it (node:crypto's ECDH: a random scalar in [1, n-1] times the base point), in
 * microseconds where @noble's pure-JS multiplication takes several milliseconds in a cold process,
 * and a session refresh and every login make one. Signing stays with @noble (stamp.ts).
 */
export function generateKeyPair(opts: { uncompressed?: boolean } = {}): KeyPair {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    // OpenSSL gives the scalar without its leading zero bytes.
    privateKey: ecdh.getPrivateKey('hex').padStart(64, '0'),
    publicKey: ecdh.getPublicKey('hex', opts.uncompressed ? 'uncompressed' : 'compressed'),
  };
}

/** The SEC1 public key of a private key (64 hex), compressed unless asked otherwise. Throws UsageError. */
export function publicKeyFromPrivate(privateKeyHex: string, opts: { uncompressed?: boolean } = {}): string {
  const secret = privateKeyBytes(privateKeyHex);
  return bytesToHex(p256.getPublicKey(secret, !opts.uncompressed));
}

/** Parses a SEC1 public key (either form) into a point on the curve, or throws UsageError. */
function parsePublicKeyPoint(hex: unknown, field = 'publicKey'): Point {
  if (typeof hex !== 'string' || !CLIENT_PUBLIC_KEY_PATTERN.test(hex)) {
    throw new UsageError(
      'Expected a P-256 public key in SEC1 hex: 02/03 + 64 hex (compressed) or 04 + 128 hex (uncompressed)',
      { input: field, reason: 'NOT_A_PUBLIC_KEY', hint: `Expected pattern ${CLIENT_PUBLIC_KEY_PATTERN.source}.` },
    );
  }
  try {
    const point = p256.Point.fromHex(hex.toLowerCase());
    point.assertValidity();
    return point;
  } catch {
    throw new UsageError('The public key is not a point on the P-256 curve', {
      input: field,
      reason: 'NOT_ON_CURVE',
      hint: 'Check that the key was copied whole.',
    });
  }
}

/** 02/03 form (66 hex) of any valid SEC1 key. `field` names the input in errors. */
export function compressPublicKey(hex: string, field = 'publicKey'): string {
  return parsePublicKeyPoint(hex, field).toHex(true);
}

/** 04 form (130 hex) of any valid SEC1 key. */
export function decompressPublicKey(hex: string, field = 'publicKey'): string {
  return parsePublicKeyPoint(hex, field).toHex(false);
}

/** A SEC1 public key (either form) as a node:crypto key, to verify DER signatures with. Throws UsageError. */
export function publicKeyObject(hex: string, field = 'publicKey'): KeyObject {
  const raw = Buffer.from(decompressPublicKey(hex, field), 'hex');
  // node:crypto has no raw-point import, and JWK needs no ASN.1 by hand.
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  return createPublicKey({ key: jwk, format: 'jwk' });
}

/** True for the 66-hex compressed shape (does not check the point; see validateClientPublicKey). */
export function isCompressedPublicKey(hex: string): boolean {
  return hex.length === 66 && CLIENT_PUBLIC_KEY_PATTERN.test(hex);
}

/**
 * Checks a clientPublicKey: the spec's pattern, and that it is a point on the curve (a key off the
 * curve could never sign, so catching it here saves a round trip). Returns the value unchanged.
 */
export function validateClientPublicKey(value: unknown, field = 'clientPublicKey'): string {
  parsePublicKeyPoint(value, field);
  return value as string;
}

/** Checks a private key: 64 hex and a scalar in [1, n-1]. Returns the value unchanged. */
export function validatePrivateKey(value: unknown, field = 'privateKey'): string {
  privateKeyBytes(value, field);
  return value as string;
}

/** 32-byte scalar of a validated private key (the message never contains the key itself). */
export function privateKeyBytes(value: unknown, field = 'privateKey'): Uint8Array {
  if (typeof value !== 'string' || !PRIVATE_KEY_PATTERN.test(value)) {
    throw new UsageError('Expected a P-256 private key: exactly 64 hex characters', {
      input: field,
      reason: 'NOT_A_PRIVATE_KEY',
    });
  }
  const bytes = hexToBytes(value, field);
  if (!p256.utils.isValidSecretKey(bytes)) {
    throw new UsageError('The private key is out of range for P-256 (must be between 1 and n-1)', {
      input: field,
      reason: 'OUT_OF_RANGE',
    });
  }
  return bytes;
}
