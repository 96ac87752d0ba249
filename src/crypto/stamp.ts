/**
 * The API-key stamp sent as `Service-Wallet-Signature` (README.md "API-key stamp"):
 * base64url(no pad) of {"publicKey","scheme","signature"}, ECDSA P-256 SHA-256 over the exact UTF-8
 * bytes of payloadToSign. Signing is RFC 6979 deterministic and low-S with DER output, so the same
 * key and payload always give the same header (and the README's vector byte for byte).
 * Verifying accepts any JSON key order and both low- and high-S, as the provider's verifiers do;
 * it runs on node:crypto (ecdsa-verify.ts) because the emulator verifies on every signed retry.
 */
import { p256 } from './curve.js';
import { VerificationError } from '../errors.js';
import { derSignatureBytes, verifyDer, verifyingKey } from './ecdsa-verify.js';
import { bytesToHex } from './hex.js';
import { privateKeyBytes } from './keys.js';

/** A compressed SEC1 public key, the form a stamp names its signer by. */
const COMPRESSED = /^0[23][0-9a-f]{64}$/;

/** The only scheme a Service-Wallet-Signature carries: ECDSA P-256 over SHA-256. */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

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

const encoder = new TextEncoder();
const BASE64URL_RE = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * A signer bound to one private key: the key is checked and its public key derived once, so a
 * loop of stamps (signed retries, benches) only pays for the ECDSA signature itself.
 * `publicKeyHex` spares the derivation (a scalar multiplication) when the caller already holds the
 * compressed public key: a stored session, a key pair just made. It must be this key's: the stamp
 * names it, and the service checks the signature against it.
 */
export function createStamper(privateKeyHex: string, publicKeyHex?: string): (payload: string | Uint8Array) => string {
  const secret = privateKeyBytes(privateKeyHex);
  const known = publicKeyHex?.toLowerCase();
  const publicKey = known !== undefined && COMPRESSED.test(known) ? known : bytesToHex(p256.getPublicKey(secret, true));
  return (payload) => {
    const der = p256.sign(payloadBytes(payload), secret, { format: 'der', lowS: true });
    const json = JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature: bytesToHex(der) });
    return Buffer.from(json, 'utf8').toString('base64url');
  };
}

/** A string payload is signed as its UTF-8 bytes; bytes (from a file or stdin) are signed as they are. */
function payloadBytes(payload: string | Uint8Array): Uint8Array {
  return typeof payload === 'string' ? encoder.encode(payload) : payload;
}

// One-shot callers (library users, tests) often pass the same key for a whole flow:
// `(p) => createStamp(p, key)`. Remembering the last stamper saves re-deriving its public key
// (half the cost of a stamp). svc's own flows hold a createStamper instead.
let last: { privateKeyHex: string; stamper: (payload: string | Uint8Array) => string } | undefined;

/** The header value for payload, signed with privateKeyHex (64 hex). */
export function createStamp(payload: string | Uint8Array, privateKeyHex: string): string {
  // Stryker disable next-line ConditionalExpression: a new stamper every time gives the same stamps, only slower.
  if (last?.privateKeyHex !== privateKeyHex) last = { privateKeyHex, stamper: createStamper(privateKeyHex) };
  return last.stamper(payload);
}

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
