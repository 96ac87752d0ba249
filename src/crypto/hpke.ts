/**
 * HPKE (RFC 9180, base mode, single shot) as the key-management provider uses it:
 * DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, info "turnkey_hpke",
 * aad = enc (65 bytes, uncompressed) ‖ recipient public key (65 bytes, uncompressed).
 * The aad binding is the provider's convention, not RFC 9180's; without it their SDKs cannot open
 * what we seal, nor we theirs (README.md "Sealed session key" vectors).
 */
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from './curve.js';
import { VerificationError } from '../errors.js';
import { concatBytes, hexToBytes } from './hex.js';
import { decompressPublicKey, privateKeyBytes } from './keys.js';

/** The HPKE `info` the provider binds every context to (UTF-8 "turnkey_hpke"). */
const HPKE_INFO = new TextEncoder().encode('turnkey_hpke');

// The suite holds no per-message state; building it once keeps seal/open cheap.
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** Seals plaintext to a P-256 public key (either SEC1 form). enc is the 65-byte uncompressed form. */
export async function hpkeSeal(
  recipientPublicKeyHex: string,
  plaintext: Uint8Array,
): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }> {
  const recipientRaw = hexToBytes(decompressPublicKey(recipientPublicKeyHex, 'recipientPublicKey'));
  const recipientPublicKey = await suite.kem.deserializePublicKey(recipientRaw);
  // The aad needs enc, which exists only once the sender context is made, so no one-shot seal().
  const sender = await suite.createSenderContext({ recipientPublicKey, info: HPKE_INFO });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, concatBytes(enc, recipientRaw)));
  return { enc, ciphertext };
}

/** Opens an HPKE ciphertext; enc may be compressed (33) or uncompressed (65). Throws VerificationError. */
export async function hpkeOpen(
  recipientPrivateKeyHex: string,
  enc: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const secret = privateKeyBytes(recipientPrivateKeyHex, 'recipientPrivateKey');
  const recipientRaw = p256.getPublicKey(secret, false);
  let encRaw: Uint8Array;
  try {
    // hpke-js only takes the 65-byte form; fromBytes also rejects points off the curve.
    encRaw = p256.Point.fromBytes(enc).toBytes(false);
  } catch {
    throw new VerificationError('HPKE encapsulated key is not a valid P-256 point');
  }
  try {
    const recipientKey = {
      privateKey: await suite.kem.deserializePrivateKey(secret),
      publicKey: await suite.kem.deserializePublicKey(recipientRaw),
    };
    const plaintext = await suite.open(
      { recipientKey, enc: encRaw, info: HPKE_INFO },
      ciphertext,
      concatBytes(encRaw, recipientRaw),
    );
    return new Uint8Array(plaintext);
  } catch {
    throw new VerificationError('HPKE decryption failed: wrong key, or the ciphertext was altered');
  }
}
