/**
 * OIDC tokens on the client side of an OAuth login: the nonce the identity provider must put in
 * the token (SHA-256 hex of the exact clientPublicKey sent with it), a sandbox-shaped token minted
 * locally (the sandbox checks claims, not the signature: spec "Auth magic values", OAuth), and a
 * look at a token's claims so a wrong nonce is caught before anything is sent.
 */
import { oidcNonce } from '../service/auth-magic.js';
import { UsageError } from '../errors.js';

export { oidcNonce };

/** What a minted sandbox token names; a later login must name the same identity. */
export interface SandboxIdentity {
  issuer: string;
  audience: string;
  subject: string;
  email?: string;
}

/** The identity a made-up sandbox token uses unless told otherwise, so add and login agree by default. */
export const SANDBOX_IDENTITY: SandboxIdentity = {
  issuer: 'https://accounts.google.com',
  audience: 'svc-sandbox',
  subject: 'svc-sandbox-user',
};

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * header.claims.signature with a dummy signature segment: good for the sandbox (and the
 * emulator), refused by production, which checks the identity provider's signature.
 */
export function mintSandboxToken(
  identity: SandboxIdentity,
  opts: { nowMs: number; nonce?: string; lifetimeSeconds?: number },
): string {
  const iat = Math.floor(opts.nowMs / 1000);
  const claims = {
    iss: identity.issuer,
    aud: identity.audience,
    sub: identity.subject,
    ...(identity.email ? { email: identity.email } : {}),
    iat,
    exp: iat + (opts.lifetimeSeconds ?? 300),
    ...(opts.nonce ? { nonce: opts.nonce } : {}),
  };
  return `${b64({ alg: 'none', typ: 'JWT', kid: 'svc-sandbox' })}.${b64(claims)}.${Buffer.from('sandbox').toString('base64url')}`;
}

/** The claims of a JWT-shaped token, or a UsageError naming field when it is not one. */
export function tokenClaims(token: string, field: string): Record<string, unknown> {
  const parts = token.split('.');
  const bad = () =>
    new UsageError('The token is not a JWT (header.claims.signature, base64url).', {
      input: field,
      reason: 'NOT_A_JWT',
    });
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) throw bad();
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (claims && typeof claims === 'object' && !Array.isArray(claims)) return claims as Record<string, unknown>;
  } catch {
    // below
  }
  throw bad();
}
