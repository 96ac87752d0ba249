/**
 * An independent check of a Service-Wallet-Signature with node:crypto only (no @noble code), so the
 * engine tests do not trust the stamp implementation they exercise.
 */
import { ECDH, createPublicKey, verify } from 'node:crypto';

export interface DecodedStamp {
  publicKey: string;
  scheme: string;
  signature: string;
}

export function decodeStamp(header: string): DecodedStamp {
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as DecodedStamp;
}

/** True when header's DER signature verifies over payload with header's (compressed) public key. */
export function nodeVerifyStamp(header: string, payload: string): boolean {
  const stamp = decodeStamp(header);
  const uncompressed = Buffer.from(
    ECDH.convertKey(stamp.publicKey, 'prime256v1', 'hex', 'hex', 'uncompressed') as string,
    'hex',
  );
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: uncompressed.subarray(1, 33).toString('base64url'),
      y: uncompressed.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  return verify(
    'sha256',
    Buffer.from(payload, 'utf8'),
    { key, dsaEncoding: 'der' },
    Buffer.from(stamp.signature, 'hex'),
  );
}
