/**
 * X-Service-Signature verification off the event loop. An ECDSA P-256 verify costs more CPU than
 * everything else a delivery needs (HTTP parsing, JSON, dedupe), so on the receiver's single JS
 * thread it caps throughput. node:crypto's callback form of verify() runs on the libuv threadpool:
 * the event loop keeps parsing requests while other cores verify.
 *
 * Same acceptance as createWebhookVerifier (src/crypto/webhook-signature.ts): the JSON header
 * {"v":"1","s":"<base64 DER>"} or a bare base64 signature, DER-encoded ECDSA over the raw body.
 */
import { verify, type KeyObject } from 'node:crypto';
import { parseWebhookPublicKey } from '../crypto/webhook-signature.js';

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const JSON_PREFIX = '{"v":"1","s":"';

/** The DER signature in a header, or undefined when the header is neither accepted form. */
export function signatureFromHeader(header: string): Buffer | undefined {
  let text = header.trim();
  if (text.startsWith('{')) {
    // The service's exact shape is sliced out directly; any other JSON layout goes through the parser.
    if (text.startsWith(JSON_PREFIX) && text.endsWith('"}') && text.indexOf('"', JSON_PREFIX.length) === text.length - 2) {
      text = text.slice(JSON_PREFIX.length, -2);
    } else {
      try {
        const parsed = JSON.parse(text) as { v?: unknown; s?: unknown };
        if (parsed.v !== '1' || typeof parsed.s !== 'string') return undefined;
        text = parsed.s;
      } catch {
        return undefined;
      }
    }
  }
  if (!BASE64.test(text)) return undefined;
  const der = Buffer.from(text, 'base64');
  return der.length > 0 ? der : undefined;
}

/** Parses the key once; the returned function resolves true only for a valid signature over body. */
export function createAsyncWebhookVerifier(publicKey: string | KeyObject): (body: Uint8Array, header: string | undefined) => Promise<boolean> {
  const key = typeof publicKey === 'string' ? parseWebhookPublicKey(publicKey) : publicKey;
  const verifyKey = { key, dsaEncoding: 'der' as const };
  return (body, header) => {
    const signature = typeof header === 'string' ? signatureFromHeader(header) : undefined;
    if (signature === undefined) return Promise.resolve(false);
    return new Promise((resolve) => {
      try {
        verify('sha256', body, verifyKey, signature, (error, ok) => resolve(!error && ok));
      } catch {
        resolve(false);
      }
    });
  };
}
