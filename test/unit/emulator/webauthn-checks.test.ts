/**
 * The relying party's assertion checks (src/emulator/features/auth/webauthn.ts) called directly, so
 * each case states the stored counter it starts from instead of inheriting one from earlier tests:
 * the signature counter must grow unless the authenticator keeps none (0 then and 0 before), and an
 * origin that cannot be parsed, or is not an http(s) origin of localhost, is refused.
 */
import { describe, expect, it } from 'vitest';
import { verifyAssertion } from '../../../src/emulator/features/auth/webauthn.js';
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
