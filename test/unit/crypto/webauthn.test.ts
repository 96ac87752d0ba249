/**
 * The WebAuthn byte formats both sides share: authenticator data with an attested credential, the
 * COSE form of a P-256 key, and the `none` attestation object, checked against the W3C layout
 * (offsets, flags, CBOR map keys) and against hand-made bad inputs.
 */
import { createHash } from 'node:crypto';
import { decodeCBOR } from '@levischuck/tiny-cbor';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import {
  FLAG_ATTESTED_CREDENTIAL,
  FLAG_USER_PRESENT,
  buildAuthenticatorData,
  coseFromSec1,
  noneAttestationObject,
  parseAttestationObject,
  parseAuthenticatorData,
  sec1FromCose,
} from '../../../src/crypto/webauthn.js';

const key = generateKeyPair({ uncompressed: true }).publicKey;
const credentialId = Buffer.from('0123456789abcdef');

describe('authenticator data', () => {
  const data = buildAuthenticatorData({
    rpId: 'localhost',
    flags: FLAG_USER_PRESENT | FLAG_ATTESTED_CREDENTIAL,
    signCount: 7,
    attested: { credentialId, publicKeyHex: key },
  });

  it('lays out rpIdHash, flags, counter, AAGUID, id length, id and the COSE key (§6.1)', () => {
    expect(data.subarray(0, 32)).toEqual(createHash('sha256').update('localhost').digest());
    expect(data[32]).toBe(0x41);
    expect(data.readUInt32BE(33)).toBe(7);
    expect(data.subarray(37, 53)).toEqual(Buffer.alloc(16));
    expect(data.readUInt16BE(53)).toBe(16);
    expect(data.subarray(55, 71)).toEqual(credentialId);
    const parsed = parseAuthenticatorData(data);
    expect(parsed).toMatchObject({ flags: 0x41, signCount: 7 });
    expect(parsed.attested!.credentialId).toEqual(credentialId);
    expect(sec1FromCose(parsed.attested!.publicKey)).toBe(key);
  });

  it('refuses data that is too short or cut inside the attested credential', () => {
    expect(() => parseAuthenticatorData(data.subarray(0, 36))).toThrow(/shorter than 37/);
    expect(() => parseAuthenticatorData(data.subarray(0, 60))).toThrow(/truncated/);
    expect(() => parseAuthenticatorData(data.subarray(0, data.length - 5))).toThrow(/truncated/);
  });
});

describe('COSE keys', () => {
  it('maps kty 2, alg -7, crv 1 and the 32-byte coordinates (RFC 9053)', () => {
    const cose = coseFromSec1(key);
    expect([...cose.keys()]).toEqual([1, 3, -1, -2, -3]);
    expect(cose.get(3)).toBe(-7);
  });

  it.each([
    [1, 3, /key type/],
    [3, -8, /ES256/],
    [-1, 2, /P-256/],
    [-2, new Uint8Array(31), /32-byte/],
  ] as Array<[number, unknown, RegExp]>)('refuses member %s = %s', (member, value, message) => {
    const cose = coseFromSec1(key) as Map<number, unknown>;
    cose.set(member, value);
    expect(() => sec1FromCose(cose as never)).toThrow(message);
  });
});

describe('attestation object', () => {
  it('is the CBOR map {fmt: none, attStmt: {}, authData}', () => {
    const authData = buildAuthenticatorData({ rpId: 'localhost', flags: FLAG_USER_PRESENT, signCount: 0 });
    const object = noneAttestationObject(authData);
    const decoded = decodeCBOR(new Uint8Array(object)) as Map<string, unknown>;
    expect(decoded.get('fmt')).toBe('none');
    expect((decoded.get('attStmt') as Map<string, unknown>).size).toBe(0);
    expect(parseAttestationObject(object).authData).toEqual(authData);
  });

  it('refuses bytes that are not a CBOR map with the three members', () => {
    expect(() => parseAttestationObject(new Uint8Array([0xff]))).toThrow(/not CBOR/);
    expect(() => parseAttestationObject(new Uint8Array([0x01]))).toThrow(/not a CBOR map/);
    expect(() => parseAttestationObject(new Uint8Array([0xa0]))).toThrow(/fmt is missing/);
  });
});
