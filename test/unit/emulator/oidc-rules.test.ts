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

/** The 400's message and each field error's message, for a token that parseOidcToken refuses. */
function invalid(token: string): { message: string; fields: Record<string, string> } {
  try {
    parseOidcToken(token);
  } catch (error) {
    const e = error as HttpError;
    expect(e.status).toBe(400);
    const errors = (e.details as { errors: { field: string; message: string }[] }).errors;
    return { message: e.message, fields: Object.fromEntries(errors.map((x) => [x.field, x.message])) };
  }
  throw new Error('expected a 400');
}

describe('parseOidcToken: the JWT shape', () => {
  const claims = segment(base);
  it.each([
    ['two segments', `${segment({})}.${claims}`],
    ['a character outside base64url at the end of a segment', `${segment({})}+.${claims}.c2ln`],
    ['a character outside base64url at the start of a segment', `+${segment({})}.${claims}.c2ln`],
    ['an empty signature segment', `${segment({})}.${claims}.`],
  ])('%s is refused as not a JWT', (_name, token) => {
    expect(invalid(token)).toEqual({
      message: 'Invalid OIDC token: a JWT is three base64url segments joined by dots',
      fields: { oidcToken: 'a JWT is three base64url segments joined by dots' },
    });
  });

  it('a header that is not base64url JSON is named as the header', () => {
    expect(invalid(`bm90IGpzb24.${claims}.c2ln`).message).toBe(
      'Invalid OIDC token: the header segment is not base64url JSON',
    );
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a number', 7],
  ])('claims that are %s are refused as not a JSON object', (_name, value) => {
    const token = `${segment({})}.${Buffer.from(JSON.stringify(value)).toString('base64url')}.c2ln`;
    expect(invalid(token).message).toBe('Invalid OIDC token: the claims segment is not a JSON object');
  });
});

describe('parseOidcToken: each claim', () => {
  it.each([
    ['an empty iss', { iss: '' }, 'oidcToken.iss', 'iss must be a non-empty string'],
    ['a numeric iss', { iss: 1 }, 'oidcToken.iss', 'iss must be a non-empty string'],
    [
      'an unknown issuer',
      { iss: 'https://issuer.example' },
      'oidcToken.iss',
      'iss https://issuer.example is not a supported issuer (https://accounts.google.com, accounts.google.com, https://appleid.apple.com)',
    ],
    ['an empty aud', { aud: '' }, 'oidcToken.aud', 'aud must be a non-empty string or a one-element array of one'],
    ['a string iat', { iat: 'yesterday' }, 'oidcToken.iat', 'iat must be a number (seconds since the epoch)'],
    [
      'an iat too large to be finite',
      { iat: 'INF' },
      'oidcToken.iat',
      'iat must be a number (seconds since the epoch)',
    ],
    ['a string exp', { exp: 'tomorrow' }, 'oidcToken.exp', 'exp must be a number (seconds since the epoch)'],
    [
      'an exp too large to be finite',
      { exp: 'INF' },
      'oidcToken.exp',
      'exp must be a number (seconds since the epoch)',
    ],
    ['a numeric nonce', { nonce: 5 }, 'oidcToken.nonce', 'nonce must be a string'],
  ])('%s is 400 naming the claim', (_name, override, field, message) => {
    // JSON has no Infinity: 1e400 is the number text that parses to it.
    const text = JSON.stringify({ ...base, ...override }).replace('"INF"', '1e400');
    const token = `${segment({})}.${Buffer.from(text).toString('base64url')}.c2ln`;
    expect(invalid(token)).toEqual({ message: `Invalid OIDC token: ${field}`, fields: { [field]: message } });
  });

  it('lists every bad claim at once', () => {
    expect(Object.keys(invalid(jwt({ iss: '', aud: [], sub: '', iat: 'x', exp: 'y' })).fields)).toEqual([
      'oidcToken.iss',
      'oidcToken.aud',
      'oidcToken.sub',
      'oidcToken.iat',
      'oidcToken.exp',
    ]);
  });

  it('keeps nonce and email only when they are non-empty strings', () => {
    expect(parseOidcToken(jwt(base))).toEqual(base);
    expect(parseOidcToken(jwt({ ...base, email: '' }))).toEqual(base);
    expect(parseOidcToken(jwt({ ...base, email: 3 }))).toEqual(base);
    expect(parseOidcToken(jwt({ ...base, nonce: 'n', email: 'a@b.example' }))).toEqual({
      ...base,
      nonce: 'n',
      email: 'a@b.example',
    });
  });
});

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
