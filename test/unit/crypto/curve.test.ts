/**
 * src/crypto/curve.ts builds P-256 from its parameters (to give noble node:crypto's random bytes):
 * it must be the very curve noble ships, and sign the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { p256 as nobleP256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { p256 } from '../../../src/crypto/curve.js';

describe('the P-256 curve of src/crypto/curve.ts', () => {
  it("has noble's P-256 parameters, field and order", () => {
    expect(p256.Point.CURVE()).toEqual(nobleP256.Point.CURVE());
    expect(p256.Point.Fp.ORDER).toBe(nobleP256.Point.Fp.ORDER);
    expect(p256.Point.Fn.ORDER).toBe(nobleP256.Point.Fn.ORDER);
    expect(p256.Point.BASE.toHex(false)).toBe(nobleP256.Point.BASE.toHex(false));
  });

  it("derives noble's public keys and signs noble's bytes (RFC 6979, deterministic)", () => {
    for (let i = 0; i < 4; i++) {
      const secret = nobleP256.utils.randomSecretKey();
      const message = randomBytes(40);
      expect(p256.getPublicKey(secret)).toEqual(nobleP256.getPublicKey(secret));
      expect(p256.sign(message, secret)).toEqual(nobleP256.sign(message, secret));
      expect(nobleP256.verify(p256.sign(message, secret), message, nobleP256.getPublicKey(secret))).toBe(true);
    }
  });

  it('never reads globalThis.crypto (on Node 20 that loads webcrypto)', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    let reads = 0;
    Object.defineProperty(globalThis, 'crypto', {
      ...descriptor,
      get() {
        reads++;
        return descriptor?.get?.call(globalThis);
      },
    });
    try {
      const secret = p256.utils.randomSecretKey();
      p256.sign(randomBytes(32), secret);
      p256.getPublicKey(secret);
      expect(reads).toBe(0);
    } finally {
      if (descriptor) Object.defineProperty(globalThis, 'crypto', descriptor);
    }
  });
});

describe("the base point's multiplication (OpenSSL's, through node:crypto)", () => {
  const n = nobleP256.Point.Fn.ORDER;

  it("gives noble's points at the ends of the scalar range and for random scalars", () => {
    const scalars = [
      1n,
      2n,
      n - 1n,
      n - 2n,
      ...Array.from({ length: 4 }, () => nobleP256.Point.Fn.fromBytes(nobleP256.utils.randomSecretKey())),
    ];
    for (const k of scalars) {
      expect(p256.Point.BASE.multiply(k).toHex(false)).toBe(nobleP256.Point.BASE.multiply(k).toHex(false));
    }
  });

  it('refuses a scalar out of range as noble does', () => {
    for (const k of [0n, n, n + 1n, -1n]) expect(() => p256.Point.BASE.multiply(k)).toThrow(RangeError);
  });

  it("leaves every other point's multiplication to noble", () => {
    const other = nobleP256.Point.BASE.multiply(7n);
    const mine = p256.Point.fromHex(other.toHex(false));
    expect(mine.multiply(5n).toHex(false)).toBe(nobleP256.Point.BASE.multiply(35n).toHex(false));
  });
});
