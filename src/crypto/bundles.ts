/**
 * The three bundle formats of the auth flows (DESIGN.md "Wire formats"):
 * - encryptedSessionSigningKey (legacy sealed key): base58check(compressed enc 33 ‖ ciphertext+tag);
 * - otpEncryptionTargetBundle: the enclave's signed statement of which key to encrypt the OTP to;
 * - encryptedOtpBundle: {"encappedPublic","ciphertext"} of {"otp_code","public_key"}.
 * Failures on data received from elsewhere are VerificationErrors; bad local keys are UsageErrors.
 */
import { p256 } from '@noble/curves/nist.js';
import bs58check from 'bs58check';
import { UsageError, VerificationError } from '../errors.js';
import { bytesToHex, concatBytes, hexToBytes } from './hex.js';
import { hpkeOpen, hpkeSeal } from './hpke.js';
import { compressPublicKey, decompressPublicKey, privateKeyBytes } from './keys.js';
import { derSignatureBytes, verifyDer, verifyingKey } from './ecdsa-verify.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const HEX_RE = /^(?:[0-9a-fA-F]{2})+$/;
const GCM_TAG_BYTES = 16;

// ---- encryptedSessionSigningKey (legacy) ----

/** Seals a session private key (64 hex) to the client's public key, as the service does in the legacy flow. */
export async function sealSessionSigningKey(recipientPublicKeyHex: string, sessionPrivateKeyHex: string): Promise<string> {
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

// ---- otpEncryptionTargetBundle ----

/**
 * Signs arbitrary target data as the enclave does: the bundle's `data` is hex of the JSON, and
 * `dataSignature` is DER ECDSA over those bytes. Exposed for the emulator and for tests.
 */
export function signOtpTargetData(signerPrivateKeyHex: string, data: Record<string, unknown>): string {
  const secret = privateKeyBytes(signerPrivateKeyHex, 'signerPrivateKey');
  const dataBytes = encoder.encode(JSON.stringify(data));
  const signature = p256.sign(dataBytes, secret, { format: 'der', lowS: true });
  return JSON.stringify({
    version: 'v1.0.0',
    data: bytesToHex(dataBytes),
    dataSignature: bytesToHex(signature),
    enclaveQuorumPublic: bytesToHex(p256.getPublicKey(secret, false)),
  });
}

/** A signed target bundle naming targetPublicKeyHex (stored uncompressed) plus any extra fields. */
export function createOtpTargetBundle(signerPrivateKeyHex: string, targetPublicKeyHex: string, extra: Record<string, unknown> = {}): string {
  const targetPublic = decompressPublicKey(targetPublicKeyHex, 'targetPublicKey');
  return signOtpTargetData(signerPrivateKeyHex, { ...extra, targetPublic });
}

export interface OtpTarget {
  targetPublic: string;
  signerPublicKey: string;
  data: Record<string, unknown>;
}

function refuse(message: string): never {
  throw new VerificationError(`otpEncryptionTargetBundle refused: ${message}`, {
    hint: 'Do not encrypt the OTP to this bundle; request a new challenge, and check the pinned signer key.',
  });
}

/**
 * Checks a target bundle before anything is encrypted to it: signer pin (when given), then the
 * signature over the data bytes (low- or high-S), then the data's targetPublic. Order matters only
 * for the message: each check is independent and all must pass.
 */
export function verifyOtpTargetBundle(bundle: string, pinnedSigner?: string): OtpTarget {
  let outer: Record<string, unknown>;
  try {
    outer = JSON.parse(bundle) as Record<string, unknown>;
  } catch {
    refuse('not JSON');
  }
  if (!outer || typeof outer !== 'object') refuse('not a JSON object');
  const { version, data, dataSignature, enclaveQuorumPublic } = outer;
  if (version !== 'v1.0.0') refuse(`unsupported version ${JSON.stringify(version)} (expected "v1.0.0")`);
  if (typeof data !== 'string' || !HEX_RE.test(data)) refuse('data is not hex');
  if (typeof dataSignature !== 'string') refuse('dataSignature is missing');
  if (typeof enclaveQuorumPublic !== 'string') refuse('enclaveQuorumPublic is missing');

  let signerPublicKey: string;
  try {
    signerPublicKey = decompressPublicKey(enclaveQuorumPublic, 'enclaveQuorumPublic');
  } catch {
    refuse('enclaveQuorumPublic is not a P-256 public key');
  }
  if (pinnedSigner !== undefined) {
    const pinned = decompressPublicKey(pinnedSigner, 'otpSignerPublicKey');
    if (pinned !== signerPublicKey) refuse(`signed by ${signerPublicKey}, not by the pinned signer ${pinned}`);
  }

  const dataBytes = hexToBytes(data);
  const signature = derSignatureBytes(dataSignature);
  if (!signature) refuse('dataSignature is not a DER ECDSA signature in hex');
  const signerKey = verifyingKey(signerPublicKey);
  if (!signerKey || !verifyDer(signature, dataBytes, signerKey)) refuse('dataSignature does not verify over data');

  let inner: Record<string, unknown>;
  try {
    inner = JSON.parse(decoder.decode(dataBytes)) as Record<string, unknown>;
  } catch {
    refuse('data does not decode to JSON');
  }
  if (!inner || typeof inner !== 'object' || typeof inner.targetPublic !== 'string') refuse('data has no targetPublic');
  let targetPublic: string;
  try {
    targetPublic = decompressPublicKey(inner.targetPublic, 'targetPublic');
  } catch {
    refuse('targetPublic is not a P-256 public key');
  }
  return { targetPublic, signerPublicKey, data: inner };
}

// ---- encryptedOtpBundle ----

/** HPKE-encrypts {"otp_code","public_key": TEK compressed} to targetPublic; key order is fixed. */
export async function encryptOtpBundle(targetPublicHex: string, otpCode: string, tekPublicKeyHex: string): Promise<string> {
  if (typeof otpCode !== 'string' || otpCode.length === 0) {
    throw new UsageError('the OTP code must be a non-empty string', { field: 'code' });
  }
  const plaintext = JSON.stringify({ otp_code: otpCode, public_key: compressPublicKey(tekPublicKeyHex, 'tekPublicKey') });
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
  if (typeof encappedPublic !== 'string' || !HEX_RE.test(encappedPublic) || typeof ciphertext !== 'string' || !HEX_RE.test(ciphertext)) {
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
