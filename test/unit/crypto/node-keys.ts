/**
 * Independent verifier helpers built on node:crypto (OpenSSL), so tests of our @noble code do not
 * check it against itself: SEC1 hex → KeyObject via JWK, and low-S/high-S DER rewriting.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';

const N = p256.Point.Fn.ORDER;

function uncompressed(publicKeyHex: string): Buffer {
  return Buffer.from(p256.Point.fromHex(publicKeyHex).toHex(false), 'hex');
}

export function nodePublicKey(publicKeyHex: string): KeyObject {
  const raw = uncompressed(publicKeyHex);
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

export function nodePrivateKey(privateKeyHex: string): KeyObject {
  const raw = Buffer.from(p256.getPublicKey(Buffer.from(privateKeyHex, 'hex'), false));
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: Buffer.from(privateKeyHex, 'hex').toString('base64url'),
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** The same signature with s replaced by n - s when needed so that s > n/2 (high-S). */
export function toHighS(derHex: string): string {
  const sig = p256.Signature.fromHex(derHex, 'der');
  const s = sig.s > N / 2n ? sig.s : N - sig.s;
  return new p256.Signature(sig.r, s).toHex('der');
}

export function isHighS(derHex: string): boolean {
  return p256.Signature.fromHex(derHex, 'der').s > N / 2n;
}

/** Flips the lowest bit of the byte at index i of a hex string. */
export function flipHexByte(hex: string, i: number): string {
  const b = Buffer.from(hex, 'hex');
  b[i] ^= 0x01;
  return b.toString('hex');
}
