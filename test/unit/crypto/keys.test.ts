import { describe, expect, it } from 'vitest';
import { hintFor } from '../../../commands/error-hints.js';
import { p256 } from '@noble/curves/nist.js';
import { UsageError } from '../../../src/errors.js';
import {
  CLIENT_PUBLIC_KEY_PATTERN,
  compressPublicKey,
  decompressPublicKey,
  generateKeyPair,
  isCompressedPublicKey,
  publicKeyFromPrivate,
  validateClientPublicKey,
  validatePrivateKey,
} from '../../../src/crypto/keys.js';
import { STAMP_VECTOR } from './vectors.js';
import { caught } from '../../helpers/caught.js';

const usageError = (fn: () => unknown) => caught(fn, UsageError);

describe('key pairs', () => {
  it('derives the src/crypto/README.md vector public key', () => {
    expect(publicKeyFromPrivate(STAMP_VECTOR.privateKey)).toBe(STAMP_VECTOR.publicKey);
    expect(compressPublicKey(publicKeyFromPrivate(STAMP_VECTOR.privateKey, { uncompressed: true }))).toBe(
      STAMP_VECTOR.publicKey,
    );
  });

  it('generates compressed pairs by default and uncompressed on request', () => {
    const a = generateKeyPair();
    expect(a.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(a.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(publicKeyFromPrivate(a.privateKey)).toBe(a.publicKey);
    const b = generateKeyPair({ uncompressed: true });
    expect(b.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(publicKeyFromPrivate(b.privateKey, { uncompressed: true })).toBe(b.publicKey);
    expect(generateKeyPair().privateKey).not.toBe(a.privateKey);
  });

  it('writes a private key whose scalar starts with a zero byte in full, 64 hex (one key in 256)', () => {
    // OpenSSL makes the keys and gives such a scalar without its leading zero; draw until one comes.
    let pair = generateKeyPair();
    for (let i = 0; i < 20_000 && !pair.privateKey.startsWith('00'); i++) pair = generateKeyPair();
    expect(pair.privateKey).toMatch(/^00[0-9a-f]{62}$/);
    expect(publicKeyFromPrivate(pair.privateKey)).toBe(pair.publicKey);
  });

  it('compresses and decompresses between the SEC1 forms', () => {
    const { publicKey } = generateKeyPair();
    const long = decompressPublicKey(publicKey);
    expect(long).toHaveLength(130);
    expect(compressPublicKey(long)).toBe(publicKey);
    expect(compressPublicKey(publicKey.toUpperCase())).toBe(publicKey);
    expect(isCompressedPublicKey(publicKey)).toBe(true);
    expect(isCompressedPublicKey(long)).toBe(false);
  });
});

describe('validateClientPublicKey', () => {
  it('returns a valid key unchanged, in either form', () => {
    const { publicKey } = generateKeyPair();
    expect(validateClientPublicKey(publicKey)).toBe(publicKey);
    const long = decompressPublicKey(publicKey);
    expect(validateClientPublicKey(long)).toBe(long);
  });

  it.each([
    ['wrong prefix', '05' + 'ab'.repeat(32)],
    ['too short', '02' + 'ab'.repeat(31)],
    ['not hex', '02' + 'zz'.repeat(32)],
    ['not a string', 42],
  ])('rejects %s with a UsageError naming the field and the pattern', (_name, value) => {
    const error = usageError(() => validateClientPublicKey(value));
    expect(error.input).toBe('clientPublicKey');
    expect(`${error.message} ${error.hint}`).toContain(CLIENT_PUBLIC_KEY_PATTERN.source);
    expect(error.reason).toBe('NOT_A_PUBLIC_KEY');
    // The CLI adds how to make one.
    expect(hintFor(error)).toMatch(/svc keys generate/);
  });

  it('rejects a well-shaped key that is not on the curve', () => {
    const error = usageError(() => validateClientPublicKey('04' + '11'.repeat(64), 'targetPublicKey'));
    expect(error.input).toBe('targetPublicKey');
    expect(error.message).toMatch(/not a point/);
  });
});

describe('validatePrivateKey', () => {
  const n = p256.Point.Fn.ORDER.toString(16).padStart(64, '0');
  it.each([
    ['short', 'ab'.repeat(31)],
    ['not hex', 'xy'.repeat(32)],
    ['zero', '00'.repeat(32)],
    ['equal to n', n],
  ])('rejects %s without echoing the value', (_name, value) => {
    const error = usageError(() => validatePrivateKey(value, '--private-key'));
    expect(error.input).toBe('--private-key');
    expect(error.message).not.toContain(value);
  });

  it('accepts a key in range, either case', () => {
    expect(validatePrivateKey(STAMP_VECTOR.privateKey.toUpperCase())).toBe(STAMP_VECTOR.privateKey.toUpperCase());
  });
});
