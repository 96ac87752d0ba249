/**
 * The sandbox's OIDC claim rules at their exact edges (spec "Auth magic values", OAuth): an empty
 * `sub`, and `iat`/`exp` one millisecond either side of the 60 s age, the 5 s skew and expiry. The
 * HTTP tests (oauth.test.ts) cover the rules with margins of seconds; these pin the boundaries, so a
 * `<` turned into `<=` or a skew dropped fails here.
 */
import { describe, expect, it } from 'vitest';
import { checkFreshness, parseOidcToken, type OidcClaims } from '../../../src/emulator/features/auth/oidc.js';
import { HttpError } from '../../../src/emulator/kernel/errors.js';
import { OIDC_RULES } from '../../../src/service/auth-magic.js';

const segment = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: object) => `${segment({ alg: 'RS256' })}.${segment(claims)}.c2ln`;
const base = { iss: 'https://accounts.google.com', aud: 'client', sub: 'user-1', iat: 1_000, exp: 2_000 };

function refusal(fn: () => unknown): { status: number; reason: string; fields: string[] } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const e = error as HttpError;
    const details = e.details as { errors?: { field: string }[] } | undefined;
    return { status: e.status, reason: e.reason ?? e.message, fields: (details?.errors ?? []).map((x) => x.field) };
  }
  throw new Error('expected a refusal');
}

describe('parseOidcToken: sub', () => {
  it.each([
    ['an empty sub', { ...base, sub: '' }],
    ['no sub', { ...base, sub: undefined }],
    ['a numeric sub', { ...base, sub: 42 }],
  ])('%s is 400 naming oidcToken.sub', (_name, claims) => {
    expect(refusal(() => parseOidcToken(jwt(claims)))).toMatchObject({ status: 400, fields: ['oidcToken.sub'] });
  });

  it('a non-empty sub is kept as sent', () => {
    expect(parseOidcToken(jwt(base)).sub).toBe('user-1');
  });
});

describe('checkFreshness at the edges (emulator time in ms, claims in seconds)', () => {
  const T = 1_700_000_000; // a whole second, so claim seconds and clock ms line up exactly
  const claims = (iat: number, exp = T + 3_600): OidcClaims => ({ ...base, iat, exp });
  const oldest = (OIDC_RULES.maxTokenAgeMs + OIDC_RULES.clockSkewMs) / 1000; // 65 s
  const skew = OIDC_RULES.clockSkewMs / 1000; // 5 s

  it('iat exactly 65 s old is accepted; one millisecond more is 401', () => {
    expect(() => checkFreshness(claims(T - oldest), T * 1000)).not.toThrow();
    expect(refusal(() => checkFreshness(claims(T - oldest), T * 1000 + 1))).toMatchObject({
      status: 401,
      reason: expect.stringMatching(/more than 60 seconds old/),
    });
  });

  it('iat exactly 5 s ahead is accepted; one millisecond further ahead is 401', () => {
    expect(() => checkFreshness(claims(T + skew), T * 1000)).not.toThrow();
    expect(refusal(() => checkFreshness(claims(T + skew), T * 1000 - 1))).toMatchObject({
      status: 401,
      reason: expect.stringMatching(/in the future/),
    });
  });

  it('exp one millisecond ahead is accepted; exp equal to now is 401 (expired)', () => {
    expect(() => checkFreshness(claims(T, T), T * 1000 - 1)).not.toThrow();
    expect(refusal(() => checkFreshness(claims(T, T), T * 1000))).toMatchObject({
      status: 401,
      reason: expect.stringMatching(/expired/),
    });
  });
});
