/**
 * Hex helpers shared by the crypto core. Wire formats are lowercase hex; input may be any case.
 * Bad input is the caller's mistake (an option, a file), so it raises UsageError naming the input.
 */
import { UsageError } from '../errors.js';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Decodes even-length hex (either case). Never echoes the value: it may be a private key. */
export function hexToBytes(hex: string, field = 'hex'): Uint8Array {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) {
    throw new UsageError('Expected hex (an even number of 0-9a-f characters)', { input: field, reason: 'NOT_HEX' });
  }
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** True for non-empty, even-length hex (either case): the shape of every hex field on the wire. */
export function isHex(text: unknown): text is string {
  return typeof text === 'string' && text.length > 0 && HEX_RE.test(text);
}

/** Lowercase hex of the bytes. */
export function bytesToHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/** Concatenates byte arrays (aad, bundle bodies). */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
