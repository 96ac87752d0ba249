/**
 * The three bundle formats of the auth flows (README.md, one section each):
 * - encryptedSessionSigningKey (legacy sealed key): base58check(compressed enc 33 ‖ ciphertext+tag);
 * - otpEncryptionTargetBundle: the enclave's signed statement of which key to encrypt the OTP to;
 * - encryptedOtpBundle: {"encappedPublic","ciphertext"} of {"otp_code","public_key"}.
 * Failures on data received from elsewhere are VerificationErrors; bad local keys are UsageErrors.
 */
import { p256 } from './curve.js';
import bs58check from 'bs58check';
import { UsageError, VerificationError } from '../errors.js';
import { bytesToHex, concatBytes, hexToBytes, isHex } from './hex.js';
import { hpkeOpen, hpkeSeal } from './hpke.js';
import { compressPublicKey, privateKeyBytes } from './keys.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const GCM_TAG_BYTES = 16;

// ---- encryptedSessionSigningKey (legacy) ----

/** Seals a session private key (64 hex) to the client's public key, as the service does in the legacy flow. */
export async function sealSessionSigningKey(
  recipientPublicKeyHex: string,
  sessionPrivateKeyHex: string,
): Promise<string> {
  const secret = privateKeyBytes(sessionPrivateKeyHex, 'sessionPrivateKey');
  const { enc, ciphertext } = await hpkeSeal(recipientPublicKeyHex, secret);
  // The wire form carries enc compressed (33 bytes) to keep the base58 string short.
  return bs58check.encode(concatBytes(p256.Point.fromBytes(enc).toBytes(true), ciphertext));
}

/** Opens an encryptedSessionSigningKey; returns the plaintext (the session private key) as hex. */
export async function decryptSessionSigningKey(bundle: string, recipientPrivateKeyHex: string): Promise<string> {
  let raw: Uint8Array;
  try {
    raw = bs58check.decode(bundle.trim());
  } catch {
    throw new VerificationError('encryptedSessionSigningKey is not valid base58check (bad character or checksum)');
  }
  if (raw.length <= 33 + GCM_TAG_BYTES) {
    throw new VerificationError('encryptedSessionSigningKey is too short to hold a key and a ciphertext');
  }
  return bytesToHex(await hpkeOpen(recipientPrivateKeyHex, raw.subarray(0, 33), raw.subarray(33)));
}

// otpEncryptionTargetBundle lives in its own file; importers keep using this module.
export {
  createOtpTargetBundle,
  signOtpTargetData,
  verifyOtpTargetBundle,
  type OtpTarget,
} from './otp-target-bundle.js';

// ---- encryptedOtpBundle ----

/** HPKE-encrypts {"otp_code","public_key": TEK compressed} to targetPublic; key order is fixed. */
export async function encryptOtpBundle(
  targetPublicHex: string,
  otpCode: string,
  tekPublicKeyHex: string,
): Promise<string> {
  if (typeof otpCode !== 'string' || otpCode.length === 0) {
    throw new UsageError('The OTP code must be a non-empty string', { input: 'code', reason: 'EMPTY' });
  }
  const plaintext = JSON.stringify({
    otp_code: otpCode,
    public_key: compressPublicKey(tekPublicKeyHex, 'tekPublicKey'),
  });
  const { enc, ciphertext } = await hpkeSeal(targetPublicHex, encoder.encode(plaintext));
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
}

/** The enclave side: opens an encryptedOtpBundle with the target private key. */
export async function decryptOtpBundle(
  encryptedOtpBundle: string,
  targetPrivateKeyHex: string,
): Promise<{ otp_code: string; public_key: string }> {
  let outer: { encappedPublic?: unknown; ciphertext?: unknown };
  try {
    outer = JSON.parse(encryptedOtpBundle) as typeof outer;
  } catch {
    throw new VerificationError('encryptedOtpBundle is not JSON');
  }
  const { encappedPublic, ciphertext } = outer ?? {};
  if (!isHex(encappedPublic) || !isHex(ciphertext)) {
    throw new VerificationError('encryptedOtpBundle must hold hex fields encappedPublic and ciphertext');
  }
  const plaintext = await hpkeOpen(targetPrivateKeyHex, hexToBytes(encappedPublic), hexToBytes(ciphertext));
  let inner: { otp_code?: unknown; public_key?: unknown };
  try {
    inner = JSON.parse(decoder.decode(plaintext)) as typeof inner;
  } catch {
    throw new VerificationError('encryptedOtpBundle plaintext is not JSON');
  }
  if (typeof inner?.otp_code !== 'string' || typeof inner.public_key !== 'string') {
    throw new VerificationError('encryptedOtpBundle plaintext must hold string otp_code and public_key');
  }
  return { otp_code: inner.otp_code, public_key: inner.public_key };
}
