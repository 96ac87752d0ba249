/**
 * The P-256 curve every module here uses, configured once.
 *
 * noble multiplies the base point faster with a table of its multiples, but building the table
 * (window 5: ~15 ms on a cold process) costs more than the two to four multiplications a CLI
 * command makes (~3 ms each without it). So a process starts without the table and builds it once
 * it has shown that it makes many: a server such as the emulator, or a loop. Window 5 rather than
 * noble's 6 builds in about half the time and signs ~8% slower in a tight loop.
 *
 * Signing is noble's ECDSA (RFC 6979 nonce, blinding, low-S, DER), given SHA-256 and HMAC-SHA256
 * from node:crypto through its `hmac` option and a prehashed message: the same bytes out (the
 * nonce is deterministic), without running noble's pure-JS hash about a dozen times in a process
 * that has not compiled it yet (a few milliseconds of a session refresh).
 */
import { createHash, createHmac } from 'node:crypto';
import { ecdsa } from '@noble/curves/abstract/weierstrass.js';
import { p256 as noble } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';

/** Base-point multiplications after which the table pays for itself. */
const TABLE_AFTER = 8;
const TABLE_WINDOW = 5;
let baseMultiplications = 0;

noble.Point.BASE.precompute(1); // window 1: noble's table-less path, until TABLE_AFTER

function counted<F extends (...args: never[]) => unknown>(f: F): F {
  return ((...args: Parameters<F>) => {
    if (++baseMultiplications === TABLE_AFTER) noble.Point.BASE.precompute(TABLE_WINDOW);
    return f(...args);
  }) as F;
}

/** Copies out of a node Buffer: noble's DRBG expects plain Uint8Arrays, never views of a pool. */
const bytes = (b: Buffer): Uint8Array => Uint8Array.from(b);

// sha256 (noble's) gives only the lengths the DRBG needs: with `hmac` and prehashed messages noble
// never runs it.
const signer = ecdsa(noble.Point, sha256, {
  hmac: (key: Uint8Array, message: Uint8Array) => bytes(createHmac('sha256', key).update(message).digest()),
});

/** noble's sign, the message hashed by node:crypto unless the caller passes a digest (`prehash: false`). */
const sign: typeof noble.sign = (message, secretKey, opts = {}) =>
  opts.prehash === false
    ? signer.sign(message, secretKey, opts)
    : signer.sign(bytes(createHash('sha256').update(message).digest()), secretKey, { ...opts, prehash: false });

/** noble's p256, with the two calls that multiply the base point counted. */
export const p256: typeof noble = {
  ...noble,
  getPublicKey: counted(noble.getPublicKey),
  sign: counted(sign),
};
