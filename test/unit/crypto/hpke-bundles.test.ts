import bs58check from 'bs58check';
import { describe, expect, it } from 'vitest';
import { p256 } from '@noble/curves/nist.js';
import { UsageError, VerificationError } from '../../../src/errors.js';
import { hpkeOpen, hpkeSeal } from '../../../src/crypto/hpke.js';
import {
  createOtpTargetBundle,
  decryptOtpBundle,
  decryptSessionSigningKey,
  encryptOtpBundle,
  sealSessionSigningKey,
  signOtpTargetData,
  verifyOtpTargetBundle,
} from '../../../src/crypto/bundles.js';
import { compressPublicKey, decompressPublicKey, generateKeyPair } from '../../../src/crypto/keys.js';
import { LEGACY_BUNDLES, LEGACY_PLAINTEXT, PROVIDER_SIGNER } from './vectors.js';
import { flipHexByte, isHighS, toHighS } from './node-keys.js';
import { caught, rejected } from '../../helpers/caught.js';

const throwsVerification = (fn: () => unknown) => caught(fn, VerificationError);

describe('HPKE', () => {
  it('opens the src/crypto/README.md sealed-key vectors (provider interop)', async () => {
    for (const v of LEGACY_BUNDLES) {
      expect(await decryptSessionSigningKey(v.bundle, v.privateKey)).toBe(LEGACY_PLAINTEXT);
    }
  });

  it('round-trips to a compressed or uncompressed recipient, with enc in either form', async () => {
    const r = generateKeyPair();
    const message = new TextEncoder().encode('secret message');
    for (const recipient of [r.publicKey, decompressPublicKey(r.publicKey)]) {
      const { enc, ciphertext } = await hpkeSeal(recipient, message);
      expect(enc).toHaveLength(65);
      expect(ciphertext).toHaveLength(message.length + 16);
      expect(await hpkeOpen(r.privateKey, enc, ciphertext)).toEqual(message);
      const short = p256.Point.fromBytes(enc).toBytes(true);
      expect(await hpkeOpen(r.privateKey, short, ciphertext)).toEqual(message);
    }
  });

  it('refuses the wrong key, a flipped ciphertext byte and a bad enc', async () => {
    const r = generateKeyPair();
    const { enc, ciphertext } = await hpkeSeal(r.publicKey, new Uint8Array([1, 2, 3]));
    await rejected(hpkeOpen(generateKeyPair().privateKey, enc, ciphertext), VerificationError);
    const flipped = ciphertext.slice();
    flipped[0] ^= 1;
    await rejected(hpkeOpen(r.privateKey, enc, flipped), VerificationError);
    await rejected(hpkeOpen(r.privateKey, enc.slice(0, 40), ciphertext), VerificationError);
  });
});

describe('encryptedSessionSigningKey (legacy)', () => {
  it('seals and opens a session key', async () => {
    const client = generateKeyPair({ uncompressed: true });
    const session = generateKeyPair();
    const bundle = await sealSessionSigningKey(client.publicKey, session.privateKey);
    const raw = bs58check.decode(bundle);
    expect(raw).toHaveLength(33 + 32 + 16);
    expect([2, 3]).toContain(raw[0]);
    expect(await decryptSessionSigningKey(bundle, client.privateKey)).toBe(session.privateKey);
  });

  it('refuses a changed checksum character and a changed ciphertext byte', async () => {
    const v = LEGACY_BUNDLES[0];
    const last = v.bundle.at(-1) === 'a' ? 'b' : 'a';
    const err = await rejected(decryptSessionSigningKey(v.bundle.slice(0, -1) + last, v.privateKey), VerificationError);
    expect(err.message).toMatch(/base58check/);
    const raw = bs58check.decode(v.bundle);
    raw[raw.length - 1] ^= 1;
    await rejected(decryptSessionSigningKey(bs58check.encode(raw), v.privateKey), VerificationError);
  });

  it('names the field for a bad recipient private key', async () => {
    const err = await rejected(decryptSessionSigningKey(LEGACY_BUNDLES[0].bundle, 'abcd'), UsageError);
    expect(err.input).toBe('recipientPrivateKey');
  });
});

describe('otpEncryptionTargetBundle', () => {
  const signer = generateKeyPair();
  const target = generateKeyPair();
  const bundle = createOtpTargetBundle(signer.privateKey, target.publicKey, { organizationId: 'org-1' });

  it('has the wire shape and verifies against its pinned signer', () => {
    const outer = JSON.parse(bundle);
    expect(Object.keys(outer)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(outer.version).toBe('v1.0.0');
    expect(outer.enclaveQuorumPublic).toBe(decompressPublicKey(signer.publicKey));
    const result = verifyOtpTargetBundle(bundle, decompressPublicKey(signer.publicKey));
    expect(result.targetPublic).toBe(decompressPublicKey(target.publicKey));
    expect(result.signerPublicKey).toBe(decompressPublicKey(signer.publicKey));
    expect(result.data.organizationId).toBe('org-1');
    // The pin compares keys, not strings: compressed or upper-case pins match too.
    expect(verifyOtpTargetBundle(bundle, signer.publicKey).targetPublic).toBe(result.targetPublic);
    expect(verifyOtpTargetBundle(bundle, decompressPublicKey(signer.publicKey).toUpperCase()).targetPublic).toBe(
      result.targetPublic,
    );
    expect(verifyOtpTargetBundle(bundle).targetPublic).toBe(result.targetPublic);
  });

  it('accepts a high-S dataSignature', () => {
    const outer = JSON.parse(bundle);
    const high = toHighS(outer.dataSignature);
    expect(isHighS(high)).toBe(true);
    expect(
      verifyOtpTargetBundle(JSON.stringify({ ...outer, dataSignature: high }), signer.publicKey).targetPublic,
    ).toBe(decompressPublicKey(target.publicKey));
  });

  it('refuses a bundle from another signer than the pinned one', () => {
    expect(throwsVerification(() => verifyOtpTargetBundle(bundle, PROVIDER_SIGNER)).message).toMatch(/pinned signer/);
  });

  it('refuses data with one byte changed', () => {
    const outer = JSON.parse(bundle);
    const tampered = JSON.stringify({ ...outer, data: flipHexByte(outer.data, 20) });
    expect(throwsVerification(() => verifyOtpTargetBundle(tampered, signer.publicKey)).message).toMatch(
      /does not verify/,
    );
  });

  it('refuses a dataSignature with one byte of r changed', () => {
    const outer = JSON.parse(bundle);
    const tampered = JSON.stringify({ ...outer, dataSignature: flipHexByte(outer.dataSignature, 10) });
    expect(throwsVerification(() => verifyOtpTargetBundle(tampered, signer.publicKey)).message).toMatch(
      /does not verify/,
    );
  });

  it('refuses a correctly signed bundle whose data has no targetPublic', () => {
    const noTarget = signOtpTargetData(signer.privateKey, { organizationId: 'org-1' });
    expect(throwsVerification(() => verifyOtpTargetBundle(noTarget, signer.publicKey)).message).toMatch(
      /no targetPublic/,
    );
  });

  it('refuses a correctly signed bundle whose targetPublic is not a key', () => {
    const bad = signOtpTargetData(signer.privateKey, { targetPublic: '04' + '11'.repeat(64) });
    expect(throwsVerification(() => verifyOtpTargetBundle(bad, signer.publicKey)).message).toMatch(
      /targetPublic is not/,
    );
  });

  it.each([
    ['text that is not JSON', '{nope', /not JSON/],
    [
      'another version',
      JSON.stringify({ version: 'v2', data: 'ab', dataSignature: 'ab', enclaveQuorumPublic: PROVIDER_SIGNER }),
      /version/,
    ],
    [
      'a missing dataSignature',
      JSON.stringify({ version: 'v1.0.0', data: 'ab', enclaveQuorumPublic: PROVIDER_SIGNER }),
      /dataSignature/,
    ],
  ])('refuses %s', (_name, text, message) => {
    expect(throwsVerification(() => verifyOtpTargetBundle(text)).message).toMatch(message);
  });
});

describe('encryptedOtpBundle', () => {
  it('round-trips {"otp_code","public_key"} with the TEK compressed', async () => {
    const target = generateKeyPair();
    const tek = generateKeyPair({ uncompressed: true });
    const text = await encryptOtpBundle(decompressPublicKey(target.publicKey), '000000', tek.publicKey);
    const outer = JSON.parse(text);
    expect(Object.keys(outer)).toEqual(['encappedPublic', 'ciphertext']);
    expect(outer.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(await decryptOtpBundle(text, target.privateKey)).toEqual({
      otp_code: '000000',
      public_key: compressPublicKey(tek.publicKey),
    });
  });

  it('refuses a changed ciphertext byte and the wrong target key', async () => {
    const target = generateKeyPair();
    const text = await encryptOtpBundle(target.publicKey, '123456', generateKeyPair().publicKey);
    const outer = JSON.parse(text);
    await rejected(
      decryptOtpBundle(JSON.stringify({ ...outer, ciphertext: flipHexByte(outer.ciphertext, 3) }), target.privateKey),
      VerificationError,
    );
    await rejected(decryptOtpBundle(text, generateKeyPair().privateKey), VerificationError);
    await rejected(decryptOtpBundle('{"encappedPublic":1}', target.privateKey), VerificationError);
  });

  it('refuses an empty code as a usage error', async () => {
    const err = await rejected(
      encryptOtpBundle(generateKeyPair().publicKey, '', generateKeyPair().publicKey),
      UsageError,
    );
    expect(err).toMatchObject({ input: 'code', reason: 'EMPTY' });
  });
});
