/**
 * Reading and verifying the API-key stamp sent as `Service-Wallet-Signature` (README.md "API-key
 * stamp"); stamp-sign.ts makes them. Verifying accepts any JSON key order and both low- and high-S,
 * as the provider's verifiers do; it runs on node:crypto (ecdsa-verify.ts) because the emulator
 * verifies on every signed retry.
 */
import { VerificationError } from '../errors.js';
import { derSignatureBytes, verifyDer, verifyingKey } from './ecdsa-verify.js';
import { payloadBytes, STAMP_SCHEME } from './stamp-sign.js';

export { createStamp, createStamper, STAMP_SCHEME } from './stamp-sign.js';

/** The decoded header: compressed public key hex, scheme, and DER signature hex. */
export interface Stamp {
  publicKey: string;
  scheme: string;
  signature: string;
}

/** 'malformed': the header cannot be used at all; 'invalid': well-formed but the signature is wrong. */
export class StampError extends VerificationError {
  readonly kind: 'malformed' | 'invalid';
  constructor(kind: 'malformed' | 'invalid', message: string) {
    super(message);
    this.kind = kind;
  }
}

const BASE64URL_RE = /^[A-Za-z0-9_-]+={0,2}$/;

/** Decodes the header: base64url JSON object with string publicKey, scheme and signature. */
export function parseStamp(header: string): Stamp {
  if (typeof header !== 'string' || !BASE64URL_RE.test(header.trim())) {
    throw new StampError('malformed', 'Service-Wallet-Signature is not base64url');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header.trim(), 'base64url').toString('utf8'));
  } catch {
    throw new StampError('malformed', 'Service-Wallet-Signature does not decode to JSON');
  }
  const o = parsed as Partial<Record<keyof Stamp, unknown>> | null;
  if (
    !o ||
    typeof o !== 'object' ||
    typeof o.publicKey !== 'string' ||
    typeof o.scheme !== 'string' ||
    typeof o.signature !== 'string'
  ) {
    throw new StampError(
      'malformed',
      'Service-Wallet-Signature must hold string fields publicKey, scheme and signature',
    );
  }
  return { publicKey: o.publicKey, scheme: o.scheme, signature: o.signature };
}

/**
 * Verifies header over payload; returns the signer's compressed public key.
 * Every structural problem is 'malformed'; only a wrong signature is 'invalid'.
 */
export function verifyStamp(header: string, payload: string | Uint8Array): { publicKey: string } {
  const stamp = parseStamp(header);
  if (stamp.scheme !== STAMP_SCHEME) {
    throw new StampError('malformed', `unsupported stamp scheme (expected ${STAMP_SCHEME})`);
  }
  const key = verifyingKey(stamp.publicKey);
  if (!key) throw new StampError('malformed', 'stamp publicKey is not a P-256 public key in SEC1 hex');
  const signature = derSignatureBytes(stamp.signature);
  if (!signature) throw new StampError('malformed', 'stamp signature is not a DER-encoded ECDSA signature in hex');
  if (!verifyDer(signature, payloadBytes(payload), key)) {
    throw new StampError('invalid', 'stamp signature does not verify over the payload');
  }
  return { publicKey: key.compressed };
}
