/**
 * The relying party's assertion checks (src/emulator/features/auth/webauthn.ts) called directly, so
 * each case states the stored counter it starts from instead of inheriting one from earlier tests:
 * the signature counter must grow unless the authenticator keeps none (0 then and 0 before), and an
 * origin that cannot be parsed, or is not an http(s) origin of localhost, is refused.
 */
import { describe, expect, it } from 'vitest';
import { attestPasskey, createSoftwarePasskey, registrationChallenge } from '../../../src/auth/software-passkey.js';
import { verifyAssertion, verifyAttestation } from '../../../src/emulator/features/auth/webauthn.js';
import { HttpError } from '../../../src/emulator/kernel/errors.js';
import { assertion, passkeyPair, type AssertionKnobs } from '../../helpers/webauthn-assertion.js';

const pk = passkeyPair();
const challenge = 'c2VydmVyLWNoYWxsZW5nZQ';

function check(stored: number, knobs: Partial<AssertionKnobs>): number | string {
  const a = assertion('cred', pk.privateKey, { challenge, ...knobs });
  try {
    return verifyAssertion(a, { challenge, publicKey: pk.publicHex, signCount: stored });
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
    return (error as HttpError).reason ?? '';
  }
}

describe('the signature counter', () => {
  it.each([
    [0, 0, 0],
    [0, 1, 1],
    [5, 6, 6],
    [5, 70_000, 70_000],
  ])('stored %i, presented %i: accepted, the new count is %i', (stored, presented, kept) => {
    expect(check(stored, { signCount: presented })).toBe(kept);
  });

  it.each([
    [5, 5],
    [5, 4],
    [5, 0],
    [1, 0],
  ])('stored %i, presented %i: refused as a possible clone', (stored, presented) => {
    expect(check(stored, { signCount: presented })).toMatch(/counter did not increase/);
  });
});

describe('the origin', () => {
  it.each(['http://localhost:5173', 'https://localhost', 'http://localhost'])('%s is accepted', (origin) => {
    expect(check(0, { origin, signCount: 1 })).toBe(1);
  });

  it.each([
    ['not a URL at all', 'not a url'],
    ['a bare host name', 'localhost'],
    ['an empty origin', ''],
    ['a broken IPv6 literal', 'http://[::1'],
    ['another scheme', 'ftp://localhost'],
    ['another host', 'https://evil.example'],
    ['a look-alike host', 'https://localhost.evil.example'],
  ])('%s (%j) is refused, naming the relying party', (_name, origin) => {
    expect(check(0, { origin, signCount: 1 })).toMatch(/origin must be an origin of the relying party localhost/);
  });
});

describe('every refusal names its check', () => {
  const good = () => assertion('cred', pk.privateKey, { challenge, signCount: 1 });
  const reason = (a: ReturnType<typeof good>, publicKey = pk.publicHex): string => {
    try {
      verifyAssertion(a, { challenge, publicKey, signCount: 0 });
    } catch (error) {
      expect((error as HttpError).status).toBe(401);
      return (error as HttpError).reason ?? '';
    }
    throw new Error('expected a refusal');
  };
  const clientData = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it.each([
    ['clientDataJson', 'assertion.clientDataJson is not base64url'],
    ['authenticatorData', 'assertion.authenticatorData is not base64url'],
    ['signature', 'assertion.signature is not base64url'],
  ] as const)('%s with a character outside base64url, at either end', (field, message) => {
    expect(reason({ ...good(), [field]: `!${good()[field]}` })).toBe(message);
    expect(reason({ ...good(), [field]: `${good()[field]}!` })).toBe(message);
  });

  it('clientDataJson that is not JSON, or of the other ceremony', () => {
    expect(reason({ ...good(), clientDataJson: Buffer.from('{').toString('base64url') })).toBe(
      'assertion.clientDataJson is not JSON',
    );
    const create = assertion('cred', pk.privateKey, { challenge, type: 'webauthn.create' });
    expect(reason(create)).toBe('clientDataJson.type must be webauthn.get');
  });

  it('a challenge that is missing or another one', () => {
    const missing = { ...good(), clientDataJson: clientData({ type: 'webauthn.get', origin: 'http://localhost' }) };
    expect(reason(missing)).toBe('clientDataJson.challenge does not match the challenge issued');
    expect(reason(assertion('cred', pk.privateKey, { challenge: 'other' }))).toBe(
      'clientDataJson.challenge does not match the challenge issued',
    );
  });

  it("accepts the challenge in either form a client may pass it: as issued, or its UTF-8 bytes' base64url", () => {
    const encoded = Buffer.from(challenge, 'utf8').toString('base64url');
    expect(() =>
      verifyAssertion(assertion('cred', pk.privateKey, { challenge: encoded, signCount: 1 }), {
        challenge,
        publicKey: pk.publicHex,
        signCount: 0,
      }),
    ).not.toThrow();
  });

  it('authenticator data too short to parse', () => {
    expect(reason({ ...good(), authenticatorData: Buffer.alloc(10).toString('base64url') })).toBe(
      'assertion.authenticatorData: authenticator data is shorter than 37 bytes',
    );
  });

  it('a signature by another key, or a registered key that cannot be read', () => {
    const other = passkeyPair();
    expect(reason(assertion('cred', other.privateKey, { challenge, signCount: 1 }))).toBe(
      'The assertion signature does not verify with the registered passkey',
    );
    expect(reason(good(), '04ab')).toBe('The assertion signature does not verify with the registered passkey');
  });

  it('an origin that is not a string, even one that reads as the right origin once made a string', () => {
    for (const origin of [5, ['http://localhost']]) {
      const odd = { ...good(), clientDataJson: clientData({ type: 'webauthn.get', challenge, origin }) };
      expect(reason(odd)).toBe('clientDataJson.origin must be an origin of the relying party localhost');
    }
  });
});

describe('a registration refusal names the field that is not base64url', () => {
  it.each(['clientDataJson', 'attestationObject', 'credentialId'] as const)('%s', (field) => {
    const issued = registrationChallenge();
    const good = attestPasskey(createSoftwarePasskey(), issued);
    expect(verifyAttestation(good, issued).credentialId).toBe(good.credentialId);
    try {
      verifyAttestation({ ...good, [field]: `!${good[field]}` }, issued);
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as HttpError).status).toBe(401);
      expect((error as HttpError).reason).toBe(`attestation.${field} is not base64url`);
    }
  });
});
