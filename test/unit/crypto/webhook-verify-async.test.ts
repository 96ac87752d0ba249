import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createAsyncWebhookVerifier,
  createWebhookVerifier,
  generateWebhookKeyPair,
  signatureFromHeader,
  signWebhookBody,
} from '../../../src/crypto/webhook-signature.js';

const keys = generateWebhookKeyPair();
const other = generateWebhookKeyPair();
const body = Buffer.from('{"id":"Webhook:1","type":"CARD.STATE_CHANGE","timestamp":"2025-10-13T00:00:00Z","data":{}}');
const der = sign('sha256', body, { key: createPrivateKey(keys.privateKeyPem), dsaEncoding: 'der' });
const b64 = der.toString('base64');
/** Every character as a JSON \u escape: valid JSON for the same string, as some encoders write '/' or '='. */
const escaped = [...b64].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Header variants, good and bad, that the two verifiers must judge alike. */
const headers: Array<[string, string | undefined]> = [
  ['signWebhookBody', signWebhookBody(body, keys.privateKeyPem)],
  ['JSON, node:crypto signature', JSON.stringify({ v: '1', s: b64 })],
  ['JSON, keys reordered', JSON.stringify({ s: b64, v: '1' })],
  ['JSON with spaces', `{ "v": "1", "s": "${b64}" }`],
  ['bare base64', b64],
  ['bare base64 with surrounding whitespace', `  ${b64}\n`],
  ['base64url', der.toString('base64url')],
  ['wrong key', signWebhookBody(body, other.privateKeyPem)],
  ['other body', signWebhookBody(Buffer.concat([body, Buffer.from(' ')]), keys.privateKeyPem)],
  ['version 2', JSON.stringify({ v: '2', s: b64 })],
  ['numeric v', `{"v":1,"s":"${b64}"}`],
  ['s missing', '{"v":"1"}'],
  ['s empty', '{"v":"1","s":""}'],
  ['s not base64', '{"v":"1","s":"!!"}'],
  ['truncated JSON', `{"v":"1","s":"${b64}`],
  ['JSON with an extra field', `{"v":"1","s":"${b64}","x":"y"}`],
  ['JSON with escaped characters in s', `{"v":"1","s":"${escaped}"}`],
  ['garbage', 'not a signature!'],
  ['empty', ''],
  ['missing', undefined],
  ['truncated DER', der.subarray(0, der.length - 3).toString('base64')],
];

describe('createAsyncWebhookVerifier', () => {
  const syncVerify = createWebhookVerifier(keys.publicKeyPem);
  const asyncVerify = createAsyncWebhookVerifier(createPublicKey(keys.publicKeyPem));

  it.each(headers)('agrees with createWebhookVerifier: %s', async (_name, header) => {
    expect(await asyncVerify(body, header)).toBe(syncVerify(body, header));
  });

  it('accepts the good forms and refuses the rest (the table is not vacuous)', async () => {
    const verdicts = await Promise.all(headers.map(([, h]) => asyncVerify(body, h)));
    expect(verdicts.filter(Boolean)).toHaveLength(9);
  });

  it('takes the key as PEM text too, and rejects a bad key as a usage error', async () => {
    expect(await createAsyncWebhookVerifier(keys.publicKeyPem)(body, b64)).toBe(true);
    expect(() => createAsyncWebhookVerifier('nope')).toThrow(/webhook public key/);
  });
});

describe('signatureFromHeader', () => {
  it('slices the service format without parsing and falls back to JSON for other layouts', () => {
    expect(signatureFromHeader(JSON.stringify({ v: '1', s: b64 }))?.equals(der)).toBe(true);
    expect(signatureFromHeader(JSON.stringify({ s: b64, v: '1' }))?.equals(der)).toBe(true);
    expect(signatureFromHeader('{"v":"1","s":"AAAA","t":"1"}')).toEqual(Buffer.from([0, 0, 0]));
    expect(signatureFromHeader('{"v":"1","s":"AA\\"AA"}')).toBeUndefined();
    // Escapes are valid JSON for the same signature: '\/' (PHP), '\u003d' (Gson), or any character.
    expect(signatureFromHeader(`{"v":"1","s":"${escaped}"}`)?.equals(der)).toBe(true);
    expect(signatureFromHeader('{"v":"1","s":"AB\\/C\\u003d"}')).toEqual(Buffer.from('AB/C=', 'base64'));
  });
});
