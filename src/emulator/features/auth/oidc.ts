/**
 * The sandbox's OIDC token rules (spec "Auth magic values", OAuth). A token must be JWT-shaped
 * (three base64url segments, JSON header and claims; the signature segment may be a dummy); else
 * 400 INVALID_INPUT before authentication starts, as is an unsupported issuer or a claim of the
 * wrong type (the description: "malformed token / unsupported issuer → 400"). The time checks
 * (iat at most 60 s old with 5 s skew, exp in the future, on the emulator clock), the identity
 * match and the nonce are authentication: 401 UNAUTHORIZED with the failed check as `reason`.
 */
import { OIDC_RULES, REJECTED_LEGACY_OIDC_TOKEN, oidcNonce } from '../../../service/auth-magic.js';
import type { FieldError } from '../../../errors.js';
import { invalidInput, unauthorized } from '../../kernel/errors.js';

export interface OidcIdentity {
  iss: string;
  /** A one-element `aud` array is stored as its element. */
  aud: string;
  sub: string;
}

export interface OidcClaims extends OidcIdentity {
  iat: number;
  exp: number;
  nonce?: string;
  email?: string;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function malformed(message: string, field = 'oidcToken'): never {
  throw invalidInput([{ field, message }], `Invalid OIDC token: ${message}`);
}

function jsonSegment(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    malformed(`the ${what} segment is not base64url JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    malformed(`the ${what} segment is not a JSON object`);
  return value as Record<string, unknown>;
}

/** Parses the token and checks every claim's presence and type, listing every bad claim at once. */
export function parseOidcToken(token: string): OidcClaims {
  if (token === REJECTED_LEGACY_OIDC_TOKEN) {
    malformed(
      `the literal ${REJECTED_LEGACY_OIDC_TOKEN} is no longer accepted: send a JWT with iss, aud, sub, iat and exp`,
    );
  }
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p)))
    malformed('a JWT is three base64url segments joined by dots');
  jsonSegment(parts[0]!, 'header');
  const claims = jsonSegment(parts[1]!, 'claims');

  const errors: FieldError[] = [];
  const bad = (claim: string, message: string) => errors.push({ field: `oidcToken.${claim}`, message });
  const { iss, aud, sub, iat, exp, nonce, email } = claims;
  if (typeof iss !== 'string' || iss === '') bad('iss', 'iss must be a non-empty string');
  else if (!(OIDC_RULES.issuers as readonly string[]).includes(iss))
    bad('iss', `iss ${iss} is not a supported issuer (${OIDC_RULES.issuers.join(', ')})`);
  const audience = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud;
  if (typeof audience !== 'string' || audience === '')
    bad('aud', 'aud must be a non-empty string or a one-element array of one');
  if (typeof sub !== 'string' || sub === '') bad('sub', 'sub must be a non-empty string');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) bad('iat', 'iat must be a number (seconds since the epoch)');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) bad('exp', 'exp must be a number (seconds since the epoch)');
  if (nonce !== undefined && typeof nonce !== 'string') bad('nonce', 'nonce must be a string');
  if (errors.length > 0) throw invalidInput(errors, `Invalid OIDC token: ${errors.map((e) => e.field).join(', ')}`);
  return {
    iss: iss as string,
    aud: audience as string,
    sub: sub as string,
    iat: iat as number,
    exp: exp as number,
    ...(typeof nonce === 'string' ? { nonce } : {}),
    ...(typeof email === 'string' && email !== '' ? { email } : {}),
  };
}

/** iat no more than 60 s before now (5 s skew either way) and exp after now; 401 otherwise. */
export function checkFreshness(claims: OidcClaims, nowMs: number): void {
  const iatMs = claims.iat * 1000;
  if (iatMs < nowMs - OIDC_RULES.maxTokenAgeMs - OIDC_RULES.clockSkewMs) {
    throw unauthorized(`OIDC token iat is more than ${OIDC_RULES.maxTokenAgeMs / 1000} seconds old`);
  }
  if (iatMs > nowMs + OIDC_RULES.clockSkewMs) throw unauthorized('OIDC token iat is in the future');
  if (claims.exp * 1000 <= nowMs) throw unauthorized('OIDC token has expired (exp)');
}

/** Verify: the token names the registered identity and binds clientPublicKey through its nonce. */
export function checkVerifyToken(
  claims: OidcClaims,
  registered: OidcIdentity,
  clientPublicKey: string,
  nowMs: number,
): void {
  for (const claim of ['iss', 'aud', 'sub'] as const) {
    if (claims[claim] !== registered[claim])
      throw unauthorized(`OIDC token ${claim} does not match the registered credential`);
  }
  checkFreshness(claims, nowMs);
  if (claims.nonce === undefined)
    throw unauthorized('OIDC token has no nonce: it must be the SHA-256 hex of clientPublicKey');
  if (claims.nonce !== oidcNonce(clientPublicKey))
    throw unauthorized('OIDC token nonce is not the SHA-256 hex of the clientPublicKey sent');
}
