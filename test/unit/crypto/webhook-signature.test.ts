import {
  createPublicKey,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  createPrivateKey,
} from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  createAsyncWebhookVerifier,
  createWebhookVerifier,
  generateWebhookKeyPair,
  parseWebhookPublicKey,
  signatureFromHeader,
  signWebhookBody,
} from '../../../src/crypto/webhook-signature.js';
import { isHighS, toHighS } from './node-keys.js';
import { caught } from '../../helpers/caught.js';

const { privateKeyPem, publicKeyPem } = generateWebhookKeyPair();
const body = Buffer.from('{"id":"Webhook:1","type":"CARD.UPDATED","data":{}}');

describe('signWebhookBody', () => {
  it('writes the bare base64 of a DER signature that node:crypto verifies, as the description gives it', () => {
    const header = signWebhookBody(body, privateKeyPem);
    expect(header).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const ok = nodeVerify(
      'sha256',
      body,
      { key: createPublicKey(publicKeyPem), dsaEncoding: 'der' },
      Buffer.from(header, 'base64'),
    );
    expect(ok).toBe(true);
  });

  it('signs the same with a KeyObject and with a string body', () => {
    const verify = createWebhookVerifier(publicKeyPem);
    expect(verify(body, signWebhookBody(body.toString('utf8'), createPrivateKey(privateKeyPem)))).toBe(true);
  });
});

describe('createWebhookVerifier', () => {
  const verify = createWebhookVerifier(publicKeyPem);
  const header = signWebhookBody(body, privateKeyPem);

  it('accepts a bare base64 signature and the older JSON header', () => {
    expect(verify(body, header)).toBe(true);
    expect(verify(body, JSON.stringify({ v: '1', s: header }))).toBe(true);
  });

  it('accepts an OpenSSL signature rewritten to high-S', () => {
    const der = nodeSign('sha256', body, { key: createPrivateKey(privateKeyPem), dsaEncoding: 'der' }).toString('hex');
    const high = toHighS(der);
    expect(isHighS(high)).toBe(true);
    expect(verify(body, Buffer.from(high, 'hex').toString('base64'))).toBe(true);
  });

  it('refuses a changed body, another key, and missing or garbled headers', () => {
    const changed = Buffer.from(body);
    changed[5] ^= 1;
    expect(verify(changed, header)).toBe(false);
    expect(createWebhookVerifier(generateWebhookKeyPair().publicKeyPem)(body, header)).toBe(false);
    for (const bad of [undefined, '', '{"v":"2","s":"AAAA"}', '{"v":"1"}', '{oops', 'not base64 !', 'AAAA']) {
      expect(verify(body, bad)).toBe(false);
    }
  });
});

describe('parseWebhookPublicKey', () => {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  const sec1 = '04' + x.toString('hex') + y.toString('hex');
  const compressed = ((y[31] & 1) === 1 ? '03' : '02') + x.toString('hex');
  const derHex = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' }).toString('hex');
  const header = signWebhookBody(body, privateKeyPem);

  it.each([
    ['SPKI PEM', publicKeyPem],
    ['uncompressed SEC1 hex', sec1],
    ['compressed SEC1 hex', compressed],
    ['DER SPKI hex', derHex],
    ['PEM with surrounding whitespace', `\n  ${publicKeyPem}\n`],
  ])('reads %s', (_name, text) => {
    expect(createWebhookVerifier(parseWebhookPublicKey(text))(body, header)).toBe(true);
  });

  it.each([
    ['garbage', 'hello'],
    ['a point off the curve', '04' + '11'.repeat(64)],
    [
      'a P-384 key',
      generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({
        type: 'spki',
        format: 'pem',
      }) as string,
    ],
    ['an Ed25519 key', generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string],
    ['broken DER', '3000'],
    ['the PKCS#8 private key (a secret pasted as the public key)', privateKeyPem],
    ['a SEC1 "EC PRIVATE KEY"', createPrivateKey(privateKeyPem).export({ type: 'sec1', format: 'pem' }) as string],
  ])('refuses %s with a UsageError on the public key (or the input its caller names)', (_name, text) => {
    const error = caught(() => parseWebhookPublicKey(text), UsageError);
    expect(error.input).toBe('publicKey');
    expect(caught(() => parseWebhookPublicKey(text, 'webhook-public-key'), UsageError).input).toBe(
      'webhook-public-key',
    );
    expect(error.message).not.toContain(text.trim().split('\n')[1] ?? text);
  });
});

describe('each refusal of a public key says what is wrong with it', () => {
  const derHex = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' }).toString('hex');
  const ed25519 = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
  it.each([
    ['plain text', 'hello', 'is not PEM, SEC1 hex or DER hex'],
    ['DER hex after other characters', `zz${derHex}`, 'is not PEM, SEC1 hex or DER hex'],
    ['DER hex followed by other characters', `${derHex}zz`, 'is not PEM, SEC1 hex or DER hex'],
    ['hex of an odd length', derHex.slice(0, -1), 'is not PEM, SEC1 hex or DER hex'],
    ['a private key header after other text', `x${privateKeyPem}`, 'is not PEM, SEC1 hex or DER hex'],
    ['no string at all', undefined, 'is not PEM, SEC1 hex or DER hex'],
    ['DER hex that is no key', '3000', 'could not be parsed'],
    ['a PEM that is no key', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', 'could not be parsed'],
    ['an Ed25519 key', ed25519, 'is not a P-256 (prime256v1) key'],
    [
      'the private key',
      privateKeyPem,
      'is a private key: pass the public key (SPKI PEM) instead, and keep the private key secret',
    ],
  ])('%s', (_name, text, reason) => {
    const error = caught(() => parseWebhookPublicKey(text as string), UsageError);
    expect(error.message).toBe(`The webhook public key ${reason}`);
    expect(error.hint).toBe(
      'Pass the SPKI PEM the service (or the emulator) prints, or its hex (SEC1 02/03/04… or DER).',
    );
  });
});

describe('signatureFromHeader', () => {
  const der = nodeSign('sha256', body, { key: createPrivateKey(privateKeyPem), dsaEncoding: 'der' });
  const b64 = der.toString('base64');

  it('reads the bare form and the JSON form, however the JSON is escaped, to the same bytes', () => {
    for (const header of [
      b64,
      `{"v":"1","s":"${b64}"}`,
      `{"s":"${b64}","v":"1"}`,
      `{"v":"1","s":"${b64.replaceAll('/', '\\/')}"}`,
    ])
      expect(signatureFromHeader(header), header).toEqual(der);
  });

  it("reads the service's exact JSON shape without JSON.parse (it runs once per delivery), any other through it", () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(signatureFromHeader(`{"v":"1","s":"${b64}"}`)).toEqual(der);
      expect(parse).not.toHaveBeenCalled();
      expect(signatureFromHeader(`{"s":"${b64}","v":"1"}`)).toEqual(der);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it.each([
    ['nothing once decoded', 'A'],
    ['not base64', 'not base64!'],
    ['JSON that is not JSON', '{"v":"1","s":'],
    ['JSON of another version', `{"v":"2","s":"${b64}"}`],
    ['the JSON prefix with another closing character', `{"v":"1","s":"${b64}"]`],
    ['JSON without a signature string', '{"v":"1","s":5}'],
  ])('is undefined for %s', (_name, header) => {
    expect(signatureFromHeader(header)).toBeUndefined();
  });
});

describe('a verifier made from the key as text', () => {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' });
  const sec1 = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  const header = signWebhookBody(body, privateKeyPem);

  it.each([
    ['PEM', publicKeyPem],
    ['SEC1 hex', sec1],
  ])('from %s verifies, on the event loop and off it', async (_name, key) => {
    expect(createWebhookVerifier(key)(body, header)).toBe(true);
    expect(await createAsyncWebhookVerifier(key)(body, header)).toBe(true);
    expect(createWebhookVerifier(key)(body, undefined)).toBe(false);
    expect(await createAsyncWebhookVerifier(key)(body, undefined)).toBe(false);
  });
});
