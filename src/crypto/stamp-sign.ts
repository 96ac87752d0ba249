/**
 * Making the API-key stamp sent as `Service-Wallet-Signature` (README.md "API-key stamp"):
 * base64url(no pad) of {"publicKey","scheme","signature"}, ECDSA P-256 SHA-256 over the exact UTF-8
 * bytes of payloadToSign. Signing is RFC 6979 deterministic and low-S with DER output, so the same
 * key and payload always give the same header (and the README's vector byte for byte).
 * Apart from stamp.ts (which reads and verifies stamps, and re-exports these) so that a command that
 * only signs (login, refresh, a signed retry) loads neither the verifier nor @noble.
 */
import { bytesToHex } from './hex.js';
import { privateKeyBytes, publicKeyFromPrivate } from './keys.js';
import { signDeterministic } from './native-p256.js';

/** A compressed SEC1 public key, the form a stamp names its signer by. */
const COMPRESSED = /^0[23][0-9a-f]{64}$/;

/** The only scheme a Service-Wallet-Signature carries: ECDSA P-256 over SHA-256. */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

const encoder = new TextEncoder();

/** A string payload is signed as its UTF-8 bytes; bytes (from a file or stdin) are signed as they are. */
export function payloadBytes(payload: string | Uint8Array): Uint8Array {
  return typeof payload === 'string' ? encoder.encode(payload) : payload;
}

/**
 * A signer bound to one private key: the key is checked and its public key derived once, so a
 * loop of stamps (signed retries, benches) only pays for the ECDSA signature itself.
 * `publicKeyHex` spares the derivation when the caller already holds the compressed public key: a
 * stored session, a key pair just made. It must be this key's: the stamp names it, and the service
 * checks the signature against it.
 */
export function createStamper(privateKeyHex: string, publicKeyHex?: string): (payload: string | Uint8Array) => string {
  const secret = privateKeyBytes(privateKeyHex);
  const known = publicKeyHex?.toLowerCase();
  const publicKey = known !== undefined && COMPRESSED.test(known) ? known : publicKeyFromPrivate(privateKeyHex);
  return (payload) => {
    const der = signDeterministic(payloadBytes(payload), secret);
    const json = JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature: bytesToHex(der) });
    return Buffer.from(json, 'utf8').toString('base64url');
  };
}

// One-shot callers (library users, tests) often pass the same key for a whole flow:
// `(p) => createStamp(p, key)`. Remembering the last stamper saves re-checking its key and
// re-deriving its public key. svc's own flows hold a createStamper instead.
let last: { privateKeyHex: string; stamper: (payload: string | Uint8Array) => string } | undefined;

/** The header value for payload, signed with privateKeyHex (64 hex). */
export function createStamp(payload: string | Uint8Array, privateKeyHex: string): string {
  // Stryker disable next-line ConditionalExpression: a new stamper every time gives the same stamps, only slower.
  if (last?.privateKeyHex !== privateKeyHex) last = { privateKeyHex, stamper: createStamper(privateKeyHex) };
  return last.stamper(payload);
}
