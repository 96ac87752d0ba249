import { verify as nodeVerify, sign as nodeSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UsageError, VerificationError } from '../../../src/errors.js';
import { generateKeyPair, decompressPublicKey } from '../../../src/crypto/keys.js';
import {
  STAMP_SCHEME,
  StampError,
  createStamp,
  createStamper,
  parseStamp,
  verifyStamp,
} from '../../../src/crypto/stamp.js';
import { STAMP_VECTOR } from './vectors.js';
import { verifyDer, verifyingKey } from '../../../src/crypto/ecdsa-verify.js';
import { flipHexByte, isHighS, nodePrivateKey, nodePublicKey, toHighS } from './node-keys.js';
import { caught } from '../../helpers/caught.js';

const encode = (o: object) => Buffer.from(JSON.stringify(o), 'utf8').toString('base64url');

function stampError(fn: () => unknown): StampError {
  const error = caught(fn, StampError);
  expect(error).toBeInstanceOf(VerificationError);
  return error;
}

describe('createStamp', () => {
  it('matches the src/crypto/README.md vector byte for byte', () => {
    const header = createStamp(STAMP_VECTOR.payload, STAMP_VECTOR.privateKey);
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe(
      `{"publicKey":"${STAMP_VECTOR.publicKey}","scheme":"${STAMP_SCHEME}","signature":"${STAMP_VECTOR.signature}"}`,
    );
    expect(header).not.toMatch(/[=+/]/);
  });

  it('given the compressed public key it already holds, stamps exactly as when it derives it', () => {
    const known = createStamper(STAMP_VECTOR.privateKey, STAMP_VECTOR.publicKey.toUpperCase())(STAMP_VECTOR.payload);
    expect(known).toBe(createStamp(STAMP_VECTOR.payload, STAMP_VECTOR.privateKey));
    // An uncompressed key is not the form a stamp names: the compressed one is derived instead.
    const uncompressed = decompressPublicKey(STAMP_VECTOR.publicKey);
    expect(createStamper(STAMP_VECTOR.privateKey, uncompressed)(STAMP_VECTOR.payload)).toBe(known);
  });

  it('is deterministic and the bound stamper agrees with the one-shot form', () => {
    const { privateKey } = generateKeyPair();
    const stamper = createStamper(privateKey);
    expect(stamper('{"a":1}')).toBe(createStamp('{"a":1}', privateKey));
    expect(stamper('{"a":1}')).toBe(stamper('{"a":1}'));
    expect(stamper(Buffer.from('héllo', 'utf8'))).toBe(stamper('héllo'));
  });

  it('is verified by node:crypto (OpenSSL), independently of @noble', () => {
    const { privateKey, publicKey } = generateKeyPair();
    const payload = '{"organizationId":"o","parameters":{"targetPublicKey":"02ab"},"timestampMs":"1","type":"T"}';
    const stamp = parseStamp(createStamp(payload, privateKey));
    expect(stamp.publicKey).toBe(publicKey);
    expect(isHighS(stamp.signature)).toBe(false);
    const ok = nodeVerify(
      'sha256',
      Buffer.from(payload),
      { key: nodePublicKey(publicKey), dsaEncoding: 'der' },
      Buffer.from(stamp.signature, 'hex'),
    );
    expect(ok).toBe(true);
  });

  it('signs bytes that are not UTF-8 exactly as they are, as node:crypto checks over the same bytes', () => {
    const { privateKey, publicKey } = generateKeyPair();
    // 0xff and a lone continuation byte are not UTF-8: a decode/encode round trip would turn them into U+FFFD.
    const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x7d]);
    const stamp = parseStamp(createStamper(privateKey)(bytes));
    const key = { key: nodePublicKey(publicKey), dsaEncoding: 'der' as const };
    const signature = Buffer.from(stamp.signature, 'hex');
    expect(nodeVerify('sha256', bytes, key, signature)).toBe(true);
    const roundTripped = Buffer.from(new TextDecoder().decode(bytes), 'utf8');
    expect(roundTripped.equals(Buffer.from(bytes))).toBe(false);
    expect(nodeVerify('sha256', roundTripped, key, signature)).toBe(false);
  });

  it('refuses a bad private key with a UsageError that does not echo it', () => {
    const almostKey = STAMP_VECTOR.privateKey.slice(0, 62);
    const error = caught(() => createStamp('x', almostKey), UsageError);
    expect(error).toMatchObject({
      input: 'privateKey',
      message: expect.stringMatching(/^Expected a P-256 private key/),
    });
    expect(`${error.message} ${error.hint}`).not.toContain(almostKey);
  });
});

describe('verifyStamp', () => {
  const { privateKey, publicKey } = generateKeyPair();
  const payload = 'payload to sign';
  const header = createStamp(payload, privateKey);
  const stamp = parseStamp(header);

  it('returns the compressed public key, for any JSON key order', () => {
    expect(verifyStamp(header, payload)).toEqual({ publicKey });
    const reordered = encode({
      signature: stamp.signature,
      scheme: stamp.scheme,
      publicKey: decompressPublicKey(publicKey),
    });
    expect(verifyStamp(reordered, payload)).toEqual({ publicKey });
    expect(verifyStamp(header, Buffer.from(payload))).toEqual({ publicKey });
  });

  it('accepts signatures made by node:crypto, including an explicit high-S variant', () => {
    const der = nodeSign('sha256', Buffer.from(payload), {
      key: nodePrivateKey(privateKey),
      dsaEncoding: 'der',
    }).toString('hex');
    expect(verifyStamp(encode({ ...stamp, signature: der }), payload)).toEqual({ publicKey });
    const high = toHighS(der);
    expect(isHighS(high)).toBe(true);
    expect(verifyStamp(encode({ ...stamp, signature: high }), payload)).toEqual({ publicKey });
    // Sanity: OpenSSL agrees the high-S form is the same valid signature.
    expect(
      nodeVerify(
        'sha256',
        Buffer.from(payload),
        { key: nodePublicKey(publicKey), dsaEncoding: 'der' },
        Buffer.from(high, 'hex'),
      ),
    ).toBe(true);
  });

  it('refuses a payload with one byte changed (invalid)', () => {
    expect(stampError(() => verifyStamp(header, 'payload to sigm')).kind).toBe('invalid');
    expect(stampError(() => verifyStamp(header, payload + '\n')).kind).toBe('invalid');
  });

  it('refuses a signature with one byte of r flipped (invalid)', () => {
    const tampered = encode({ ...stamp, signature: flipHexByte(stamp.signature, 10) });
    expect(stampError(() => verifyStamp(tampered, payload)).kind).toBe('invalid');
  });

  it('refuses the stamp key with one byte flipped (off the curve or another key: never valid)', () => {
    for (let i = 1; i < 33; i++) {
      const tampered = encode({ ...stamp, publicKey: flipHexByte(publicKey, i) });
      expect(['malformed', 'invalid']).toContain(stampError(() => verifyStamp(tampered, payload)).kind);
    }
  });

  it('refuses another valid key in the stamp (invalid)', () => {
    const other = encode({ ...stamp, publicKey: generateKeyPair().publicKey });
    expect(stampError(() => verifyStamp(other, payload)).kind).toBe('invalid');
  });

  const NOT_BASE64URL = 'Service-Wallet-Signature is not base64url';
  const NOT_JSON = 'Service-Wallet-Signature does not decode to JSON';
  const FIELDS = 'Service-Wallet-Signature must hold string fields publicKey, scheme and signature';
  const KEY = 'stamp publicKey is not a P-256 public key in SEC1 hex';
  const SIGNATURE = 'stamp signature is not a DER-encoded ECDSA signature in hex';
  const raw = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    [
      'a scheme with one byte changed',
      () => encode({ ...stamp, scheme: STAMP_SCHEME.replace('P256', 'P257') }),
      `unsupported stamp scheme (expected ${STAMP_SCHEME})`,
    ],
    ['a public key off the curve', () => encode({ ...stamp, publicKey: '04' + '11'.repeat(64) }), KEY],
    ['a public key of the wrong length', () => encode({ ...stamp, publicKey: publicKey.slice(0, 64) }), KEY],
    ['a public key with text after it', () => encode({ ...stamp, publicKey: `${publicKey}zz` }), KEY],
    ['a signature that is not DER', () => encode({ ...stamp, signature: flipHexByte(stamp.signature, 0) }), SIGNATURE],
    ['a signature that is not hex', () => encode({ ...stamp, signature: 'zz' }), SIGNATURE],
    ['a signature with text after it', () => encode({ ...stamp, signature: `${stamp.signature}zz` }), SIGNATURE],
    ['a signature of odd length', () => encode({ ...stamp, signature: stamp.signature.slice(0, -1) }), SIGNATURE],
    ['a missing signature', () => encode({ publicKey, scheme: STAMP_SCHEME }), FIELDS],
    ['a missing publicKey', () => encode({ scheme: STAMP_SCHEME, signature: stamp.signature }), FIELDS],
    ['a numeric scheme', () => encode({ ...stamp, scheme: 1 }), FIELDS],
    ['a non-string signature', () => encode({ ...stamp, signature: 1 }), FIELDS],
    ['JSON null', () => raw('null'), FIELDS],
    ['a JSON string', () => raw('"stamp"'), FIELDS],
    ['a JSON array', () => raw('[]'), FIELDS],
    ['text that is not base64url', () => 'not base64url!', NOT_BASE64URL],
    ['base64url after another character', () => `!${header}`, NOT_BASE64URL],
    ['base64url before another character', () => `${header}!`, NOT_BASE64URL],
    ['base64url that is not JSON', () => raw('nope'), NOT_JSON],
  ])('refuses %s as malformed, saying what is wrong', (_name, make, message) => {
    const error = stampError(() => verifyStamp(make(), payload));
    expect(error.kind).toBe('malformed');
    expect(error.message).toBe(message);
  });

  it('refuses a header that is not a string, as not base64url', () => {
    const error = stampError(() => verifyStamp(42 as unknown as string, payload));
    expect(error.message).toBe(NOT_BASE64URL);
  });

  it('says a wrong signature does not verify over the payload', () => {
    expect(stampError(() => verifyStamp(header, 'other')).message).toBe(
      'stamp signature does not verify over the payload',
    );
  });

  it('takes a header pasted with surrounding whitespace', () => {
    expect(verifyStamp(` ${header}\n`, payload)).toEqual({ publicKey });
  });

  it('reports an uncompressed signer in the compressed form, for either parity of y', () => {
    const seen = new Set<string>();
    for (let i = 0; seen.size < 2 && i < 64; i++) {
      const key = generateKeyPair();
      const signed = parseStamp(createStamp(payload, key.privateKey));
      const named = encode({ ...signed, publicKey: decompressPublicKey(key.publicKey) });
      expect(verifyStamp(named, payload)).toEqual({ publicKey: key.publicKey });
      seen.add(key.publicKey.slice(0, 2));
    }
    expect([...seen].sort()).toEqual(['02', '03']);
  });
});

describe('createStamper with the public key it is given', () => {
  it('names a compressed key it is given as it is, any case, without deriving it (the caller vouches for it)', () => {
    const { privateKey } = generateKeyPair();
    const vouched = generateKeyPair().publicKey;
    expect(parseStamp(createStamper(privateKey, vouched.toUpperCase())('x')).publicKey).toBe(vouched);
  });

  it.each([
    ['an uncompressed key', (k: string) => decompressPublicKey(k)],
    ['a compressed key with a byte missing', (k: string) => k.slice(0, -2)],
    ['a compressed key with text after it', (k: string) => `${k}00`],
    ['a key with a 04 prefix of compressed length', (k: string) => `04${k.slice(2)}`],
    ['a key with a character that is not hex', (k: string) => `${k.slice(0, -1)}g`],
  ])('derives its own key instead of naming %s', (_name, mangle) => {
    const { privateKey, publicKey } = generateKeyPair();
    expect(parseStamp(createStamper(privateKey, mangle(publicKey))('x')).publicKey).toBe(publicKey);
  });
});

describe('verifyDer', () => {
  it('is false, not a throw, for bytes that are not a signature', () => {
    const { publicKey } = generateKeyPair();
    const key = verifyingKey(publicKey)!;
    expect(verifyDer(Uint8Array.from([0x30, 0x02, 0x01]), Buffer.from('x'), key)).toBe(false);
  });
});
