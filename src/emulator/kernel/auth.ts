/**
 * Who is calling. HTTP Basic with the emulator's API token id and client secret is built in (the
 * platform); a feature may answer further schemes (`Authorization: Bearer …` for agents) by
 * exporting `authSchemes`. Any other scheme, or none, is 401 with a WWW-Authenticate challenge.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { HttpError } from './errors.js';

/**
 * The platform itself (Basic), or an agent acting for one customer (a feature's Bearer scheme). A
 * platform caller with `permissions` used an API token made with `POST /tokens` (features/tokens):
 * it may do only what those allow (kernel/permissions.ts); the emulator's own token may do anything.
 */
export type Principal =
  | { kind: 'platform'; tokenId?: string; permissions?: readonly string[] }
  | { kind: 'agent'; agentId: string; customerId: string };

/** A feature's further Basic credentials (API tokens): the caller they name, or undefined. */
export type BasicVerifier = (emu: EmulatorContext, clientId: string, secret: string) => Principal | undefined;

/** Checks the credentials after the scheme name; returns the caller or throws a 401 (see basicRefused). */
export type Authenticator = (credentials: string, emu: EmulatorContext) => Principal;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Only a failed Authorization check asks for credentials; signature 401s are not cured by re-sending them. */
export function basicRefused(reason: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', 'Unauthorized', {
    reason,
    headers: { 'www-authenticate': 'Basic realm="svc-emulator"' },
  });
}

/**
 * The Basic check for one emulator. It compares SHA-256 digests (the expected ones made once), not
 * the strings: timingSafeEqual needs equal lengths, and bailing out on a length mismatch would
 * tell a caller how long the secret is. Both halves are always compared, so the timing does not
 * say which one was wrong either.
 */
function basicAuthenticator(emu: EmulatorContext, verifiers: readonly BasicVerifier[]): Authenticator {
  const expectedId = digest(emu.core.apiTokenId);
  const expectedSecret = digest(emu.core.apiClientSecret);
  const platform: Principal = { kind: 'platform' };
  return (value) => {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const okId = timingSafeEqual(digest(colon < 0 ? decoded : decoded.slice(0, colon)), expectedId);
    const okSecret = timingSafeEqual(digest(colon < 0 ? '' : decoded.slice(colon + 1)), expectedSecret);
    if (okId && okSecret) return platform;
    if (colon >= 0) {
      for (const verify of verifiers) {
        const principal = verify(emu, decoded.slice(0, colon), decoded.slice(colon + 1));
        if (principal) return principal;
      }
    }
    throw basicRefused('Invalid API token id or client secret');
  };
}

/** The Authorization check of one emulator: Basic plus the features' schemes. */
export function authorizationChecker(
  emu: EmulatorContext,
  schemes: Record<string, Authenticator>,
  verifiers: readonly BasicVerifier[] = [],
): (header: string | undefined) => Principal {
  const all: Record<string, Authenticator> = { ...schemes, basic: basicAuthenticator(emu, verifiers) };
  const names = Object.keys(all)
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join(' or ');
  return (header) => {
    if (!header)
      throw basicRefused(
        'Missing HTTP Basic credentials: send Authorization: Basic base64(<api token id>:<api client secret>)',
      );
    const [scheme = '', value = ''] = header.split(/\s+/, 2);
    const authenticate = Object.hasOwn(all, scheme.toLowerCase()) ? all[scheme.toLowerCase()] : undefined;
    if (!authenticate) {
      throw basicRefused(
        names === 'Basic'
          ? `The emulator accepts HTTP Basic credentials only, not ${scheme}`
          : `The emulator accepts ${names} credentials, not ${scheme}`,
      );
    }
    return authenticate(value, emu);
  };
}
