/**
 * The P-256 curve every module here uses, configured once.
 *
 * noble multiplies the base point faster with a table of its multiples, but building the table on
 * a cold process costs more than the two to four multiplications a CLI command makes without it.
 * So a process starts without the table and builds it once it has shown that it makes many: a
 * server such as the emulator, or a loop. Window 5 rather than noble's 6: a table built in about
 * half the time, for signing only slightly slower in a tight loop.
 *
 * Signing is noble's ECDSA (RFC 6979 nonce, blinding, low-S, DER), given SHA-256 and HMAC-SHA256
 * from node:crypto through its `hmac` option and a prehashed message: the same bytes out (the
 * nonce is deterministic), without running noble's pure-JS hash about a dozen times in a process
 * that has not compiled it yet.
 *
 * The curve is built here from its parameters rather than taken from noble's nist.js, to give it
 * node:crypto's random bytes (signing blinds its multiplications with them): noble's default
 * reads `globalThis.crypto`, which on Node 20 loads all of webcrypto, about a dozen modules, in
 * every command that signs.
 */
import { createHash, createHmac, randomFillSync } from 'node:crypto';
import { ecdsa, weierstrass } from '@noble/curves/abstract/weierstrass.js';
import { sha256 } from '@noble/hashes/sha2.js';

/** Base-point multiplications after which the table pays for itself. */
const TABLE_AFTER = 8;
const TABLE_WINDOW = 5;
let baseMultiplications = 0;

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

P256_POINT.BASE.precompute(1); // window 1: noble's table-less path, until TABLE_AFTER

function counted<F extends (...args: never[]) => unknown>(f: F): F {
  return ((...args: Parameters<F>) => {
    if (++baseMultiplications === TABLE_AFTER) P256_POINT.BASE.precompute(TABLE_WINDOW);
    return f(...args);
  }) as F;
}

/** Copies out of a node Buffer: noble's DRBG expects plain Uint8Arrays, never views of a pool. */
const bytes = (b: Buffer): Uint8Array => Uint8Array.from(b);

// sha256 (noble's) gives only the lengths the DRBG needs: with `hmac` and prehashed messages noble
// never runs it.
const signer = ecdsa(P256_POINT, sha256, {
  randomBytes,
  hmac: (key: Uint8Array, message: Uint8Array) => bytes(createHmac('sha256', key).update(message).digest()),
});

/** noble's sign, the message hashed by node:crypto unless the caller passes a digest (`prehash: false`). */
const sign: typeof signer.sign = (message, secretKey, opts = {}) =>
  opts.prehash === false
    ? signer.sign(message, secretKey, opts)
    : signer.sign(bytes(createHash('sha256').update(message).digest()), secretKey, { ...opts, prehash: false });

/** noble's p256 ECDSA, with the two calls that multiply the base point counted. */
export const p256: typeof signer = {
  ...signer,
  getPublicKey: counted(signer.getPublicKey),
  sign: counted(sign),
};
