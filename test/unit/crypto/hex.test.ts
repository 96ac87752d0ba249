/** The one hex codec (src/crypto/hex.ts): what every key, signature and bundle on the wire is written in. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { bytesToHex, hexToBytes, isHex } from '../../../src/crypto/hex.js';
import { caught } from '../../helpers/caught.js';

const refusal = (fn: () => unknown) => caught(fn, UsageError);

describe('hexToBytes / bytesToHex', () => {
  it('round-trips every byte value, and random bytes of many lengths', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hexToBytes(bytesToHex(all))).toEqual(all);
    for (const n of [0, 1, 2, 31, 32, 33, 65, 1000]) {
      const bytes = new Uint8Array(randomBytes(n));
      expect(hexToBytes(bytesToHex(bytes))).toEqual(bytes);
    }
  });

  it('writes lowercase, two digits a byte (leading zeros kept)', () => {
    expect(bytesToHex(Uint8Array.of(0, 1, 0x0a, 0xff))).toBe('00010aff');
    expect(bytesToHex(new Uint8Array())).toBe('');
  });

  it('reads either case', () => {
    expect(hexToBytes('00FFa1Bc')).toEqual(Uint8Array.of(0, 0xff, 0xa1, 0xbc));
    expect(bytesToHex(hexToBytes('DEADbeef'))).toBe('deadbeef');
  });

  it('writes only the bytes of a view, not the whole buffer behind it', () => {
    const whole = Uint8Array.of(1, 2, 3, 4, 5);
    expect(bytesToHex(whole.subarray(1, 3))).toBe('0203');
  });

  it('gives bytes of their own (not a view of a shared pool)', () => {
    const bytes = hexToBytes('0102');
    expect(bytes.byteLength).toBe(2);
    expect(bytes.buffer.byteLength).toBe(2);
  });

  it('refuses odd lengths and non-hex characters, naming the field and never echoing the value', () => {
    for (const bad of ['abc', 'zz', '0x00', '00 11', 'ab\n', 'éé', '0g']) {
      const error = refusal(() => hexToBytes(bad, 'privateKey'));
      expect(error.input).toBe('privateKey');
      expect(error.reason).toBe('NOT_HEX');
      if (bad.length > 1) expect(error.message).not.toContain(bad);
    }
    expect(refusal(() => hexToBytes(undefined as unknown as string)).input).toBe('hex');
  });
});

describe('isHex', () => {
  it('is true for non-empty even-length hex of either case', () => {
    expect(isHex('00')).toBe(true);
    expect(isHex('aBcD')).toBe(true);
  });
  it('is false for empty, odd, non-hex and non-strings', () => {
    for (const v of ['', 'a', 'abc', 'gg', '0x00', ' 00', 12, null, undefined, ['00']]) expect(isHex(v)).toBe(false);
  });
});
