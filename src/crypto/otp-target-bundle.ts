/**
 * otpEncryptionTargetBundle (README.md "OTP target bundle"): the enclave's signed statement of which key an
 * OTP must be encrypted to. The client checks the signer against its pin and the signature over the
 * data bytes before anything is encrypted; every refusal is a VerificationError saying why.
 */
import { p256 } from './curve.js';
import { VerificationError } from '../errors.js';
import { bytesToHex, hexToBytes, isHex } from './hex.js';
import { decompressPublicKey, privateKeyBytes } from './keys.js';
import { derSignatureBytes, verifyDer, verifyingKey } from './ecdsa-verify.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

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
export function createOtpTargetBundle(
  signerPrivateKeyHex: string,
  targetPublicKeyHex: string,
  extra: Record<string, unknown> = {},
): string {
  const targetPublic = decompressPublicKey(targetPublicKeyHex, 'targetPublicKey');
  return signOtpTargetData(signerPrivateKeyHex, { ...extra, targetPublic });
}

/** What a verified otpEncryptionTargetBundle says: which key to encrypt the OTP to, and who said so. */
export interface OtpTarget {
  /** The key to HPKE-encrypt the OTP bundle to, uncompressed hex (04…). */
  targetPublic: string;
  /** The enclave key that signed the bundle, uncompressed hex; pin it on first use. */
  signerPublicKey: string;
  /** The whole signed data object (targetPublic plus whatever else the enclave put there). */
  data: Record<string, unknown>;
}

/** A bundle read without a pin: `signerPublicKey` is undefined when the bundle carries no signer at all. */
export type ReadOtpTarget = Omit<OtpTarget, 'signerPublicKey'> & { signerPublicKey?: string };

function refuse(message: string): never {
  throw new VerificationError(`otpEncryptionTargetBundle refused: ${message}`, {
    hint: 'Do not encrypt the OTP to this bundle; request a new challenge, and check the pinned signer key.',
  });
}

/** Whether `a` and `b` name the same P-256 key (either may be compressed); `b` is a pin, so a bad one throws. */
export function sameSigner(a: string, b: string): boolean {
  return decompressPublicKey(a, 'enclaveQuorumPublic') === decompressPublicKey(b, 'otpSignerPublicKey');
}

/**
 * Reads a target bundle and checks it is self-consistent: a signer that is a P-256 key and a
 * signature by it over the data bytes (low- or high-S), then the data's targetPublic. Whether that
 * signer is trusted is the caller's question (a pin). The remote sandbox may send both signer
 * fields empty: that reads as no signer, which only a caller that knows it talks to a sandbox may accept.
 */
export function readOtpTargetBundle(bundle: string): ReadOtpTarget {
  let outer: Record<string, unknown>;
  try {
    outer = JSON.parse(bundle) as Record<string, unknown>;
  } catch {
    refuse('not JSON');
  }
  if (!outer || typeof outer !== 'object') refuse('not a JSON object');
  const { version, data, dataSignature, enclaveQuorumPublic } = outer;
  if (version !== 'v1.0.0') refuse(`unsupported version ${JSON.stringify(version)} (expected "v1.0.0")`);
  if (!isHex(data)) refuse('data is not hex');
  if (typeof dataSignature !== 'string') refuse('dataSignature is missing');
  if (typeof enclaveQuorumPublic !== 'string') refuse('enclaveQuorumPublic is missing');
  const dataBytes = hexToBytes(data);

  let signerPublicKey: string | undefined;
  // Both empty is the sandbox's unsigned form; one empty is a broken bundle, refused below.
  if (dataSignature !== '' || enclaveQuorumPublic !== '') {
    try {
      signerPublicKey = decompressPublicKey(enclaveQuorumPublic, 'enclaveQuorumPublic');
    } catch {
      refuse('enclaveQuorumPublic is not a P-256 public key');
    }
    const signature = derSignatureBytes(dataSignature);
    if (!signature) refuse('dataSignature is not a DER ECDSA signature in hex');
    const signerKey = verifyingKey(signerPublicKey);
    if (!signerKey || !verifyDer(signature, dataBytes, signerKey)) refuse('dataSignature does not verify over data');
  }

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

/**
 * Checks a target bundle before anything is encrypted to it: a signer (an unsigned bundle is
 * refused here), its signature over the data bytes, the data's targetPublic, and the signer against
 * the pin when one is given.
 */
export function verifyOtpTargetBundle(bundle: string, pinnedSigner?: string): OtpTarget {
  const target = readOtpTargetBundle(bundle);
  const { signerPublicKey } = target;
  if (signerPublicKey === undefined) refuse('dataSignature and enclaveQuorumPublic are empty (an unsigned bundle)');
  if (pinnedSigner !== undefined && !sameSigner(signerPublicKey, pinnedSigner)) {
    refuse(
      `signed by ${signerPublicKey}, not by the pinned signer ${decompressPublicKey(pinnedSigner, 'otpSignerPublicKey')}`,
    );
  }
  return { ...target, signerPublicKey };
}
