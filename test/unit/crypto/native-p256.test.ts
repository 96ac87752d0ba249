import { randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import {
  convertPublicKey,
  generateSecretKey,
  isValidSecretKey,
  publicKeyOf,
  signDeterministic,
} from '../../../src/crypto/native-p256.js';
import { STAMP_VECTOR } from './vectors.js';

// @noble/curves is the reference: svc signed with it before, and stamps must not change.
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const N = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';
const scalar = (h: string) => Buffer.from(h.padStart(64, '0'), 'hex');

describe('signDeterministic (RFC 6979 on OpenSSL)', () => {
  it('signs the src/crypto/README.md vector byte for byte', () => {
    const der = signDeterministic(Buffer.from(STAMP_VECTOR.payload), Buffer.from(STAMP_VECTOR.privateKey, 'hex'));
    expect(hex(der)).toBe(STAMP_VECTOR.signature);
  });

  it("gives @noble's low-S DER signature for any key and message, including keys with leading zero bytes", () => {
    const keys: Uint8Array[] = [scalar('1'), scalar('00ff'.repeat(4)), scalar((BigInt(`0x${N}`) - 1n).toString(16))];
    for (let i = 0; i < 200; i++) keys.push(generateSecretKey(true).secret);
    keys.forEach((secret, i) => {
      const message = randomBytes(i % 97);
      expect(hex(signDeterministic(message, secret))).toBe(
        hex(p256.sign(message, secret, { format: 'der', lowS: true })),
      );
    });
  });
});

describe('keys on OpenSSL', () => {
  it("makes 32-byte private keys whose public keys are @noble's, in both forms", () => {
    for (let i = 0; i < 300; i++) {
      const compressed = i % 2 === 0;
      const { secret, publicKey } = generateSecretKey(compressed);
      expect(secret).toHaveLength(32); // OpenSSL's scalar has its leading zero bytes put back
      expect(isValidSecretKey(secret)).toBe(true);
      expect(hex(publicKey)).toBe(hex(p256.getPublicKey(secret, compressed)));
      expect(hex(publicKeyOf(secret, !compressed))).toBe(hex(p256.getPublicKey(secret, !compressed)));
    }
  });

  it('accepts a private key in [1, n-1] only', () => {
    expect(isValidSecretKey(scalar('0'))).toBe(false);
    expect(isValidSecretKey(scalar('1'))).toBe(true);
    expect(isValidSecretKey(scalar((BigInt(`0x${N}`) - 1n).toString(16)))).toBe(true);
    expect(isValidSecretKey(Buffer.from(N, 'hex'))).toBe(false);
    expect(isValidSecretKey(scalar('1').subarray(1))).toBe(false);
  });

  it('converts a public key between its forms and refuses one off the curve', () => {
    const { secret, publicKey } = generateSecretKey(true);
    const uncompressed = hex(p256.getPublicKey(secret, false));
    expect(hex(convertPublicKey(publicKey, false))).toBe(uncompressed);
    expect(hex(convertPublicKey(Buffer.from(uncompressed, 'hex'), true))).toBe(hex(publicKey));
    // Y changed: not on the curve. X = p or more: not a field element.
    const offCurve = Buffer.from(uncompressed, 'hex');
    offCurve[64]! ^= 1;
    expect(() => convertPublicKey(offCurve, true)).toThrow();
    expect(() => convertPublicKey(Buffer.from(`02${'ff'.repeat(32)}`, 'hex'), false)).toThrow();
  });
});
