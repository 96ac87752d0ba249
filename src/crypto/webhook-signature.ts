/**
 * X-Service-Signature (DESIGN.md "Wire formats"): {"v":"1","s":"<base64 DER>"}, ECDSA P-256 SHA-256
 * over the raw body bytes. Both sides use node:crypto (OpenSSL): it is the fastest verifier Node
 * has, and it is independent of the @noble code that makes stamps, so the two cross-check.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto';
import { UsageError } from '../errors.js';
import { CLIENT_PUBLIC_KEY_PATTERN, decompressPublicKey } from './keys.js';

export function generateWebhookKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** The header value for body. Pass a KeyObject when signing many bodies, to parse the PEM once. */
export function signWebhookBody(body: Uint8Array | string, privateKeyPem: string | KeyObject): string {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const der = nodeSign('sha256', bytes, { key, dsaEncoding: 'der' });
  return JSON.stringify({ v: '1', s: der.toString('base64') });
}

function badKey(reason: string): never {
  throw new UsageError(`webhook public key ${reason}`, {
    field: 'publicKey',
    hint: 'Pass the SPKI PEM the service (or `svc emulator start`) prints, or its hex (SEC1 02/03/04… or DER).',
  });
}

/** PEM (SPKI), hex SEC1 (02/03/04) or hex DER SPKI → a P-256 KeyObject. */
export function parseWebhookPublicKey(text: string): KeyObject {
  const value = typeof text === 'string' ? text.trim() : '';
  let key: KeyObject;
  try {
    if (value.startsWith('-----BEGIN')) {
      key = createPublicKey({ key: value, format: 'pem' });
    } else if (CLIENT_PUBLIC_KEY_PATTERN.test(value)) {
      // SEC1 point → JWK: node:crypto has no raw-point import, and JWK needs no ASN.1 by hand.
      const raw = Buffer.from(decompressPublicKey(value), 'hex');
      const jwk = { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') };
      key = createPublicKey({ key: jwk, format: 'jwk' });
    } else if (/^30(?:[0-9a-fA-F]{2})+$/.test(value)) {
      key = createPublicKey({ key: Buffer.from(value, 'hex'), format: 'der', type: 'spki' });
    } else {
      badKey('is not PEM, SEC1 hex or DER hex');
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    badKey('could not be parsed');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    badKey('is not a P-256 (prime256v1) key');
  }
  return key;
}

/** The DER signature bytes in a header: the JSON form or a bare base64 signature. */
function signatureFromHeader(header: string): Buffer | undefined {
  const text = header.trim();
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as { v?: unknown; s?: unknown };
      return o.v === '1' && typeof o.s === 'string' ? Buffer.from(o.s, 'base64') : undefined;
    } catch {
      return undefined;
    }
  }
  return /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/**
 * Parses the key once and returns the hot-path check: true only when header carries a valid
 * signature over body. Never throws for bad input; a missing or garbled header is just false.
 */
export function createWebhookVerifier(publicKey: string | KeyObject): (body: Uint8Array, header: string | undefined) => boolean {
  const key = typeof publicKey === 'string' ? parseWebhookPublicKey(publicKey) : publicKey;
  const verifyKey = { key, dsaEncoding: 'der' as const };
  return (body, header) => {
    if (typeof header !== 'string' || header.length === 0) return false;
    const signature = signatureFromHeader(header);
    if (!signature || signature.length === 0) return false;
    try {
      return nodeVerify('sha256', body, verifyKey, signature);
    } catch {
      return false;
    }
  };
}
