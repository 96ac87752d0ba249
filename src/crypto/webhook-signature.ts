/**
 * X-Service-Signature (README.md "Webhook signature"): the bare base64 of the DER ECDSA P-256 SHA-256
 * signature over the raw body bytes, as the service's public API description gives it; verifiers
 * also take the older JSON form {"v":"1","s":"<base64 DER>"}. Both sides use node:crypto (OpenSSL): it is the fastest verifier Node
 * has, and it is independent of the @noble code that makes stamps, so the two cross-check.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto';
import { UsageError } from '../errors.js';
import { CLIENT_PUBLIC_KEY_PATTERN, publicKeyObject } from './keys.js';

/** A fresh P-256 webhook signing pair as PEM (PKCS#8 private, SPKI public), as the emulator uses. */
export function generateWebhookKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/**
 * The header value for body: bare base64 of the DER signature (the description's form). Pass a
 * KeyObject when signing many bodies, to parse the PEM once.
 */
export function signWebhookBody(body: Uint8Array | string, privateKeyPem: string | KeyObject): string {
  // node:crypto would take the PEM and sign a string as its UTF-8 bytes itself, but its types take
  // a KeyObject and bytes only.
  // Stryker disable next-line all: a PEM or its KeyObject give node:crypto the same key.
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  // Stryker disable next-line all: a string or its UTF-8 bytes give node:crypto the same input.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return nodeSign('sha256', bytes, { key, dsaEncoding: 'der' }).toString('base64');
}

/** What is wrong with a webhook key: its reason code and the words after "The webhook public key". */
const BAD_KEY = {
  PRIVATE_KEY: 'is a private key: pass the public key (SPKI PEM) instead, and keep the private key secret',
  UNKNOWN_FORMAT: 'is not PEM, SEC1 hex or DER hex',
  UNPARSABLE: 'could not be parsed',
  NOT_P256: 'is not a P-256 (prime256v1) key',
} as const;

function badKey(reason: keyof typeof BAD_KEY, input: string): never {
  throw new UsageError(`The webhook public key ${BAD_KEY[reason]}`, {
    input,
    reason,
    hint: 'Pass the SPKI PEM the service (or the emulator) prints, or its hex (SEC1 02/03/04… or DER).',
  });
}

/**
 * PEM (SPKI), hex SEC1 (02/03/04) or hex DER SPKI → a P-256 KeyObject. A private key PEM is refused
 * although node:crypto could derive the public key from it: the value is about to be stored in a
 * profile or passed around as public, and a secret must not travel that way unnoticed. `input` is the
 * caller's name for the value, which a refusal names (src/errors.ts).
 */
export function parseWebhookPublicKey(text: string, input = 'publicKey'): KeyObject {
  // Stryker disable next-line StringLiteral: any text that is no key gets the same answer as the empty one.
  const value = typeof text === 'string' ? text.trim() : '';
  let key: KeyObject;
  try {
    if (/^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)) {
      badKey('PRIVATE_KEY', input);
    } else if (value.startsWith('-----BEGIN')) {
      key = createPublicKey({ key: value, format: 'pem' });
    } else if (CLIENT_PUBLIC_KEY_PATTERN.test(value)) {
      key = publicKeyObject(value, input);
    } else if (/^30(?:[0-9a-fA-F]{2})+$/.test(value)) {
      key = createPublicKey({ key: Buffer.from(value, 'hex'), format: 'der', type: 'spki' });
    } else {
      badKey('UNKNOWN_FORMAT', input);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    badKey('UNPARSABLE', input);
  }
  // Only an EC key has a named curve; every asymmetric key has details, so `?.` only satisfies the type.
  // Stryker disable next-line OptionalChaining
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    badKey('NOT_P256', input);
  }
  return key;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const JSON_PREFIX = '{"v":"1","s":"';

/** `s` of a JSON header {"v":"1","s":"…"} in any layout or escaping; undefined for anything else. */
function signatureInJson(text: string): string | undefined {
  let parsed: { v?: unknown; s?: unknown } | undefined;
  try {
    parsed = JSON.parse(text) as { v?: unknown; s?: unknown };
  } catch {
    // not JSON: no signature
  }
  return parsed?.v === '1' && typeof parsed.s === 'string' ? parsed.s : undefined;
}

/**
 * The DER signature in a header: the JSON form {"v":"1","s":"<base64>"} or a bare base64 signature;
 * undefined when it is neither. The service's exact JSON shape is sliced out without JSON.parse
 * (this runs once per delivery); any other JSON layout goes through the parser, and so does any
 * escape: JSON encoders may write '/' as "\/" (PHP) or '=' as "\u003d" (Gson), both valid JSON.
 */
export function signatureFromHeader(header: string): Buffer | undefined {
  let text = header.trim();
  if (text.startsWith('{')) {
    const end = text.length - 2;
    const exactShape =
      text.startsWith(JSON_PREFIX) && text.endsWith('"}') && text.indexOf('"', JSON_PREFIX.length) === end;
    if (exactShape && !text.includes('\\', JSON_PREFIX.length)) {
      text = text.slice(JSON_PREFIX.length, end);
    } else {
      const inner = signatureInJson(text);
      if (inner === undefined) return undefined;
      text = inner;
    }
  }
  if (!BASE64.test(text)) return undefined;
  const der = Buffer.from(text, 'base64');
  return der.length > 0 ? der : undefined;
}

/**
 * Parses the key once and returns the hot-path check: true only when header carries a valid
 * signature over body. Never throws for bad input; a missing or garbled header is just false.
 */
export function createWebhookVerifier(
  publicKey: string | KeyObject,
): (body: Uint8Array, header: string | undefined) => boolean {
  const key = typeof publicKey === 'string' ? parseWebhookPublicKey(publicKey) : publicKey;
  const verifyKey = { key, dsaEncoding: 'der' as const };
  return (body, header) => {
    const signature = typeof header === 'string' ? signatureFromHeader(header) : undefined;
    if (signature === undefined) return false;
    // Any bytes are taken as a DER signature: ones that are not DER verify false, they do not throw.
    return nodeVerify('sha256', body, verifyKey, signature);
  };
}

/**
 * The same check off the event loop. An ECDSA P-256 verify costs more CPU than everything else a
 * delivery needs (HTTP parsing, JSON, dedupe), so on a receiver's single JS thread it caps
 * throughput; the callback form of node:crypto verify() runs on the libuv threadpool, so the event
 * loop keeps parsing requests while other cores verify.
 */
export function createAsyncWebhookVerifier(
  publicKey: string | KeyObject,
): (body: Uint8Array, header: string | undefined) => Promise<boolean> {
  const key = typeof publicKey === 'string' ? parseWebhookPublicKey(publicKey) : publicKey;
  const verifyKey = { key, dsaEncoding: 'der' as const };
  return (body, header) => {
    const signature = typeof header === 'string' ? signatureFromHeader(header) : undefined;
    if (signature === undefined) return Promise.resolve(false);
    return new Promise((resolve) =>
      nodeVerify('sha256', body, verifyKey, signature, (error, ok) => resolve(!error && ok)),
    );
  };
}
