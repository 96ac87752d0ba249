/**
 * Passkey registration over HTTP with real WebAuthn attestations: the software authenticator
 * registers (fmt none) and then logs in through the assertion checks; packed self-attestation is
 * accepted too; each registration check refuses its own bad ceremony with 401 and the check named.
 */
import { generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import { describe, expect, it } from 'vitest';
import {
  assertPasskey,
  attestPasskey,
  createSoftwarePasskey,
  registrationChallenge,
} from '../../../../src/auth/software-passkey.js';
import { decryptSessionSigningKey } from '../../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import {
  FLAG_ATTESTED_CREDENTIAL,
  FLAG_USER_PRESENT,
  buildAuthenticatorData,
  coseFromSec1,
  sha256,
} from '../../../../src/crypto/webauthn.js';
import { newWallet, signedCall } from './support.js';
import { errorShape, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator();
const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

const register = (accountId: string, attestation: object, challenge: string, nickname = 'Test key') =>
  t.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId, nickname, challenge, attestation } });

describe('passkey registration with the software authenticator', () => {
  it('registers (fmt none), then challenge + a real assertion give a session sealed to clientPublicKey', async () => {
    const wallet = await newWallet(t);
    const passkey = createSoftwarePasskey();
    const challenge = registrationChallenge();
    const made = await register(wallet.accountId, attestPasskey(passkey, challenge), challenge, '  Laptop (work)  ');
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      type: 'PASSKEY',
      credentialId: passkey.credentialId,
      nickname: 'Laptop (work)',
      accountId: wallet.accountId,
    });
    expect((await t.call('GET', `/auth/credentials?accountId=${wallet.accountId}`)).body.data).toEqual([
      expect.objectContaining({ credentialId: passkey.credentialId }),
    ]);

    for (let round = 1; round <= 2; round++) {
      const client = generateKeyPair();
      const c = await t.call('POST', `/auth/credentials/${made.body.id}/challenge`, {
        body: { clientPublicKey: client.publicKey },
      });
      expect(c.body.challenge).toMatch(/^[0-9a-f]{64}$/);
      const { assertion, signCount } = assertPasskey(passkey, c.body.challenge);
      passkey.signCount = signCount;
      const v = await t.call('POST', `/auth/credentials/${made.body.id}/verify`, {
        body: { type: 'PASSKEY', assertion },
        headers: { 'request-id': c.body.requestId },
      });
      expect(v.status, v.text).toBe(200);
      expect(v.body).toMatchObject({
        type: 'PASSKEY',
        credentialId: passkey.credentialId,
        accountId: wallet.accountId,
      });
      expect(await decryptSessionSigningKey(v.body.encryptedSessionSigningKey, client.privateKey)).toMatch(
        /^[0-9a-f]{64}$/,
      );
    }
  });

  it('an account that has a credential adds a passkey through the signed retry; the same credentialId twice is 400', async () => {
    const passkey = createSoftwarePasskey();
    const challenge = registrationChallenge();
    const body = {
      type: 'PASSKEY',
      accountId: t.emu.fixtures.accountId,
      nickname: 'Phone',
      challenge,
      attestation: attestPasskey(passkey, challenge),
    };
    const { first, retry } = await signedCall(t, 'POST', '/auth/credentials', body, login.privateKey);
    expect(first.body.type).toBe('PASSKEY');
    expect(retry.status).toBe(201);
    const again = registrationChallenge();
    const dup = await register(t.emu.fixtures.accountId, attestPasskey(passkey, again), again);
    expect(errorShape(dup)).toMatchObject({ status: 400, code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
  });

  it('a registration challenge is good once', async () => {
    const challenge = registrationChallenge();
    expect(
      (await register((await newWallet(t)).accountId, attestPasskey(createSoftwarePasskey(), challenge), challenge))
        .status,
    ).toBe(201);
    const reused = await register(
      (await newWallet(t)).accountId,
      attestPasskey(createSoftwarePasskey(), challenge),
      challenge,
    );
    expect(errorShape(reused)).toMatchObject({ status: 401, reason: expect.stringMatching(/already used/) });
  });
});

/** A hand-made registration with knobs, signed by node:crypto (independent of the software authenticator). */
interface Knobs {
  type?: string;
  challenge?: string;
  origin?: string;
  rpId?: string;
  flags?: number;
  fmt?: string;
  attStmt?: Map<string, CBORType> | 'packed-self' | 'packed-bad' | 'packed-rs256' | 'packed-unsigned';
  cose?: Map<number, CBORType>;
  sentId?: string;
  object?: Uint8Array;
}
function handMade(challenge: string, k: Knobs = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const sec1 = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  const credentialId = Buffer.from('hand-made-credential-id');
  const clientData = Buffer.from(
    JSON.stringify({
      type: k.type ?? 'webauthn.create',
      challenge: k.challenge ?? challenge,
      origin: k.origin ?? 'https://localhost:8443',
    }),
  );
  let authData = buildAuthenticatorData({
    rpId: k.rpId ?? 'localhost',
    flags: k.flags ?? FLAG_USER_PRESENT | FLAG_ATTESTED_CREDENTIAL,
    signCount: 0,
    attested: { credentialId, publicKeyHex: sec1 },
  });
  if (k.cose)
    authData = Buffer.concat([authData.subarray(0, 55 + credentialId.length), Buffer.from(encodeCBOR(k.cose))]);
  const selfSig = (key: KeyObject) =>
    nodeSign('sha256', Buffer.concat([authData, sha256(clientData)]), { key, dsaEncoding: 'der' });
  let attStmt: Map<string, CBORType> = new Map();
  if (k.attStmt === 'packed-self')
    attStmt = new Map<string, CBORType>([
      ['alg', -7],
      ['sig', new Uint8Array(selfSig(privateKey))],
    ]);
  else if (k.attStmt === 'packed-rs256')
    // A valid ES256 signature by the new key, labelled RS256: the label alone must be refused.
    attStmt = new Map<string, CBORType>([
      ['alg', -257],
      ['sig', new Uint8Array(selfSig(privateKey))],
    ]);
  else if (k.attStmt === 'packed-unsigned') attStmt = new Map<string, CBORType>([['alg', -7]]);
  else if (k.attStmt === 'packed-bad')
    attStmt = new Map<string, CBORType>([
      ['alg', -7],
      ['sig', new Uint8Array(selfSig(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey))],
    ]);
  else if (k.attStmt) attStmt = k.attStmt;
  const object =
    k.object ??
    encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', k.fmt ?? (typeof k.attStmt === 'string' ? 'packed' : 'none')],
        ['attStmt', attStmt],
        ['authData', new Uint8Array(authData)],
      ]),
    );
  return {
    credentialId: k.sentId ?? b64url(credentialId),
    clientDataJson: b64url(clientData),
    attestationObject: b64url(object),
  };
}

describe('passkey registration checks', () => {
  it('accepts packed self-attestation signed by the new key', async () => {
    const challenge = registrationChallenge();
    const answer = await register(
      (await newWallet(t)).accountId,
      handMade(challenge, { attStmt: 'packed-self' }),
      challenge,
    );
    expect(answer.status, answer.text).toBe(201);
  });

  const otherKey = coseFromSec1(generateKeyPair({ uncompressed: true }).publicKey);
  it.each([
    ['a get (not create) ceremony', { type: 'webauthn.get' }, /webauthn.create/],
    ['another challenge', { challenge: 'c29tZXRoaW5nLWVsc2U' }, /challenge/],
    ['a foreign origin', { origin: 'https://evil.example' }, /origin/],
    ['an origin that is not a URL', { origin: 'localhost' }, /origin/],
    ['another relying party', { rpId: 'evil.example' }, /relying party/],
    ['no user presence', { flags: FLAG_ATTESTED_CREDENTIAL }, /user-presence/],
    ['no attested credential', { flags: FLAG_USER_PRESENT }, /attested credential/],
    ['a credentialId that is not the attested one', { sentId: b64url(Buffer.from('other')) }, /credentialId/],
    ['an unsupported format', { fmt: 'fido-u2f' }, /not accepted/],
    [
      'packed attestation with a certificate chain (not self-attestation)',
      { fmt: 'packed', attStmt: new Map<string, CBORType>([['x5c', []]]) },
      /Attestation format packed is not accepted/,
    ],
    ['a none statement that is not empty', { attStmt: new Map([['x', 1]]) }, /empty/],
    ['a packed signature by another key', { attStmt: 'packed-bad' }, /does not verify/],
    ['a packed statement whose alg is not ES256', { attStmt: 'packed-rs256' }, /alg -7/],
    ['a packed statement without sig', { attStmt: 'packed-unsigned' }, /alg -7 and sig/],
    [
      'an EdDSA key',
      { cose: new Map<number, CBORType>([...otherKey].map(([k, v]) => [k, k === 3 ? -8 : v])) },
      /ES256/,
    ],
    [
      'a key that is not a point of P-256',
      { cose: new Map<number, CBORType>([...otherKey].map(([k, v]) => [k, k === -3 ? new Uint8Array(32) : v])) },
      /^credential public key: The public key is not a point on the P-256 curve/,
    ],
    ['an attestation object that is not CBOR', { object: new Uint8Array([0xff, 0x00]) }, /CBOR/],
  ] as Array<[string, Knobs, RegExp]>)('401 UNAUTHORIZED for %s', async (_name, knobs, reason) => {
    const challenge = registrationChallenge();
    const answer = await register((await newWallet(t)).accountId, handMade(challenge, knobs), challenge);
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(reason),
    });
  });

  it('400 INVALID_INPUT naming nickname, challenge and attestation fields', async () => {
    const answer = await t.call('POST', '/auth/credentials', {
      body: {
        type: 'PASSKEY',
        accountId: t.emu.fixtures.accountId,
        nickname: 'x'.repeat(101),
        challenge: 'not base64url!',
        attestation: { credentialId: 'abc', transports: ['bluetooth'] },
      },
    });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'attestation.clientDataJson',
      'attestation.attestationObject',
      'attestation.transports[0]',
    ]);
  });
});
