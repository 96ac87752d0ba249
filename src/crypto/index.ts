/**
 * The crypto core's public surface: P-256 keys, API-key stamps, HPKE bundles and webhook signatures.
 * Listed by name, so helpers shared inside src/crypto (DER checks, the verifying-key cache, header
 * slicing) stay internal and can change without breaking library users.
 */
export { bytesToHex, hexToBytes } from './hex.js';
export {
  CLIENT_PUBLIC_KEY_PATTERN,
  compressPublicKey,
  decompressPublicKey,
  generateKeyPair,
  isCompressedPublicKey,
  publicKeyFromPrivate,
  validateClientPublicKey,
  validatePrivateKey,
  type KeyPair,
} from './keys.js';
export { STAMP_SCHEME, StampError, createStamp, createStamper, parseStamp, verifyStamp, type Stamp } from './stamp.js';
export { hpkeOpen, hpkeSeal } from './hpke.js';
export {
  createOtpTargetBundle,
  decryptOtpBundle,
  decryptSessionSigningKey,
  encryptOtpBundle,
  sealSessionSigningKey,
  signOtpTargetData,
  verifyOtpTargetBundle,
  type OtpTarget,
} from './bundles.js';
export {
  createAsyncWebhookVerifier,
  createWebhookVerifier,
  generateWebhookKeyPair,
  parseWebhookPublicKey,
  signWebhookBody,
} from './webhook-signature.js';
