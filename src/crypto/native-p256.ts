/**
 * P-256 key generation, public keys and RFC 6979 signing on node:crypto (OpenSSL), for the
 * short-lived commands: a login or `svc session refresh` makes a key and signs once or twice, and
 * @noble's pure-JS curve does each of those in a cold process in a few milliseconds (the module
 * itself takes about as long to load) where OpenSSL takes microseconds.
 *
 * node:crypto signs with a random nonce, but a stamp must be RFC 6979 deterministic (README.md
 * "API-key stamp"), so the signature is put together here from native parts: the nonce k from
 * RFC 6979's HMAC-DRBG (node's HMAC-SHA256), R = k·G by OpenSSL's ECDH (a scalar times the base
 * point), and s = k⁻¹(h + r·d) mod n, made low-S. test/unit/crypto/native-p256.test.ts checks
 * that every signature equals @noble's, byte for byte.
 */
import { createECDH, createHash, createHmac, ECDH } from 'node:crypto';

/** The order of the P-256 group. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const CURVE = 'prime256v1';

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const to32Bytes = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

const publicKeyOfEcdh = (ecdh: ECDH, compressed: boolean): Buffer =>
  // node's typings give the compressed form only with a string encoding; as bytes it is a Buffer.
  ecdh.getPublicKey(null, compressed ? 'compressed' : 'uncompressed') as unknown as Buffer;

/** True for 32 bytes holding a scalar in [1, n-1]: a usable private key. */
export function isValidSecretKey(secret: Uint8Array): boolean {
  if (secret.length !== 32) return false;
  const d = toBigInt(secret);
  return d > 0n && d < N;
}

/** A fresh private key (32 bytes) and its SEC1 public key, from OpenSSL's CSPRNG. */
export function generateSecretKey(compressed: boolean): { secret: Buffer; publicKey: Buffer } {
  const ecdh = createECDH(CURVE);
  ecdh.generateKeys();
  const publicKey = publicKeyOfEcdh(ecdh, compressed);
  // OpenSSL gives the scalar without its leading zero bytes.
  return { secret: to32Bytes(toBigInt(ecdh.getPrivateKey())), publicKey };
}

/** The SEC1 public key of a valid private key (isValidSecretKey). */
export function publicKeyOf(secret: Uint8Array, compressed: boolean): Buffer {
  const ecdh = createECDH(CURVE);
  ecdh.setPrivateKey(secret);
  return publicKeyOfEcdh(ecdh, compressed);
}

/**
 * A SEC1 public key (either form) in the form asked for; throws when it is not a point on the
 * curve (OpenSSL checks it, and refuses an X outside the field).
 */
export function convertPublicKey(publicKey: Uint8Array, compressed: boolean): Buffer {
  return ECDH.convertKey(publicKey, CURVE, undefined, undefined, compressed ? 'compressed' : 'uncompressed') as Buffer;
}

/** x⁻¹ mod n (n prime, x in [1, n-1]), by the extended Euclidean algorithm. */
function invert(x: bigint): bigint {
  let [a, b, u, v] = [x, N, 1n, 0n];
  while (a !== 0n) {
    const q = b / a;
    [a, b, u, v] = [b - q * a, a, v - q * u, u];
  }
  return ((v % N) + N) % N;
}

/** One DER INTEGER: big-endian, minimal, with a 00 byte before a set high bit. */
function derInteger(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

/**
 * ECDSA P-256 over SHA-256(message) with `secret` (a valid private key): RFC 6979 deterministic
 * nonce, low-S, DER. The same key and message always give the same bytes, as @noble's sign does.
 */
export function signDeterministic(message: Uint8Array, secret: Uint8Array): Buffer {
  const d = toBigInt(secret);
  const h = toBigInt(createHash('sha256').update(message).digest()) % N;
  const hmac = (key: Buffer, ...parts: Buffer[]) => {
    const mac = createHmac('sha256', key);
    for (const part of parts) mac.update(part);
    return mac.digest();
  };
  // RFC 6979 section 3.2, with qlen = hlen = 256 bits: bits2octets(h) is h mod n in 32 bytes.
  const seed = Buffer.concat([to32Bytes(d), to32Bytes(h)]);
  let v = Buffer.alloc(32, 1);
  let k = hmac(Buffer.alloc(32, 0), v, Buffer.from([0]), seed);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.from([1]), seed);
  v = hmac(k, v);
  const ecdh = createECDH(CURVE);
  for (;;) {
    v = hmac(k, v);
    const nonce = toBigInt(v);
    if (nonce > 0n && nonce < N) {
      ecdh.setPrivateKey(v);
      const r = toBigInt(ecdh.getPublicKey().subarray(1, 33)) % N;
      let s = (invert(nonce) * (h + r * d)) % N;
      if (r !== 0n && s !== 0n) {
        if (s > N >> 1n) s = N - s;
        const body = Buffer.concat([derInteger(r), derInteger(s)]);
        return Buffer.concat([Buffer.from([0x30, body.length]), body]);
      }
    }
    k = hmac(k, v, Buffer.from([0]));
    v = hmac(k, v);
  }
}
