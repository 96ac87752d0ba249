/** The spec's "Auth magic values" and the legacy values it accepts (or refuses). */
import { createHash } from 'node:crypto';

/** Email and SMS OTP: the fixed sandbox code (sent HPKE-encrypted in encryptedOtpBundle). */
export const SANDBOX_OTP_CODE = '000000';
/** The 401 reason for any other decrypted code. */
export const INVALID_OTP_REASON = 'Invalid OTP code';

/** Legacy wallet signature, still accepted in place of a stamp (spec "Versioning" 3). */
export const LEGACY_WALLET_SIGNATURE = 'sandbox-valid-signature';
/** Legacy passkey assertion signature, still accepted; skips the WebAuthn checks. */
export const LEGACY_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';
/** The legacy literal OIDC token: refused (OAuth needs a JWT-shaped token with real claims). */
export const REJECTED_LEGACY_OIDC_TOKEN = 'sandbox-valid-oidc-token';

/** OAuth registration and verify: claim rules of the sandbox (spec "Auth magic values", OAuth). */
export const OIDC_RULES = {
  /** `iat` may be at most this old at the request… */
  maxTokenAgeMs: 60_000,
  /** …with this much clock skew allowed (either way). */
  clockSkewMs: 5_000,
  /**
   * Accepted issuers. The spec says "forms of two identity providers" without naming them; these are
   * the emulator's choice: Google's two issuer forms and Apple's.
   */
  issuers: ['https://accounts.google.com', 'accounts.google.com', 'https://appleid.apple.com'],
} as const;

/**
 * The `nonce` an OAuth verify token must carry: the lowercase SHA-256 hex digest of the exact
 * clientPublicKey string sent with it (as typed: the same key in other letter case is another nonce).
 */
export function oidcNonce(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}
