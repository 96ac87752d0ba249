/**
 * The P-256 curve every module here uses, configured once.
 *
 * Signing is noble's ECDSA (RFC 6979 nonce, blinding, low-S, DER), with two parts handed to
 * node:crypto, which OpenSSL does in microseconds where noble's pure-JS arithmetic takes about
 * 15 ms in a cold process (a CLI command signs once or twice, and never warms it up):
 * - the base-point multiplication (k·G for a signature's nonce, d·G for a public key), by
 *   OpenSSL's constant-time P-256 through node:crypto's ECDH, whose key pair for a scalar is that
 *   scalar times the base point. The result is the same point, so signatures stay byte for byte
 *   RFC 6979's (the README's vector);
 * - SHA-256 and HMAC-SHA256, through noble's `hmac` option and a prehashed message, without
 *   running noble's pure-JS hash about a dozen times in a process that has not compiled it yet.
 *
 * The curve is built here from its parameters rather than taken from noble's nist.js, to give it
 * node:crypto's random bytes (signing blinds its inversion with them): noble's default reads
 * `globalThis.crypto`, which on Node 20 loads all of webcrypto, about a dozen modules, in every
 * command that signs.
 */
import { createECDH, createHash, createHmac, type ECDH, randomFillSync } from 'node:crypto';
import { ecdsa, weierstrass } from '@noble/curves/abstract/weierstrass.js';
import { sha256 } from '@noble/hashes/sha2.js';

const randomBytes = (length = 32): Uint8Array<ArrayBuffer> => randomFillSync(new Uint8Array(length));

/** NIST P-256 (secp256r1), as SEC 2 and FIPS 186 define it; test/unit/crypto checks it is noble's. */
const P256_POINT = weierstrass(
  {
    p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
    n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    h: 1n,
    a: 0xffffffff00000001000000000000000000000000fffffffffffffffffffffffcn,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    Gx: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
    Gy: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
  },
  { randomBytes },
);
type Point = InstanceType<typeof P256_POINT>;

/** Copies out of a node Buffer: noble's DRBG expects plain Uint8Arrays, never views of a pool. */
const bytes = (b: Buffer): Uint8Array => Uint8Array.from(b);

/** OpenSSL's P-256 key-pair maker, created on the first multiplication. */
let openssl: ECDH | undefined;

/**
 * noble's points, with the base point's multiplication done by OpenSSL. noble's ECDSA and key
 * derivation multiply `Point.BASE` of the class they are given, so they get this one; every other
 * point and operation is noble's own.
 */
class P256Point extends P256_POINT {
  static override readonly BASE: Point = new P256Point(P256_POINT.BASE.X, P256_POINT.BASE.Y, P256_POINT.BASE.Z);

  override multiply(scalar: bigint): Point {
    // noble's own path for anything but a valid scalar times the base point: its errors, and
    // every other point, stay as they were.
    if (this !== P256Point.BASE || !P256_POINT.Fn.isValidNot0(scalar)) return super.multiply(scalar);
    openssl ??= createECDH('prime256v1');
    openssl.setPrivateKey(Buffer.from(P256_POINT.Fn.toBytes(scalar)));
    return P256_POINT.fromBytes(bytes(openssl.getPublicKey()));
  }
}

// sha256 (noble's) gives only the lengths the DRBG needs: with `hmac` and prehashed messages noble
// never runs it.
const signer = ecdsa(P256Point, sha256, {
  randomBytes,
  hmac: (key: Uint8Array, message: Uint8Array) => bytes(createHmac('sha256', key).update(message).digest()),
});

/** noble's sign, the message hashed by node:crypto unless the caller passes a digest (`prehash: false`). */
const sign: typeof signer.sign = (message, secretKey, opts = {}) =>
  opts.prehash === false
    ? signer.sign(message, secretKey, opts)
    : signer.sign(bytes(createHash('sha256').update(message).digest()), secretKey, { ...opts, prehash: false });

/** noble's p256 ECDSA, signing through node:crypto's hash. */
export const p256: typeof signer = { ...signer, sign };
