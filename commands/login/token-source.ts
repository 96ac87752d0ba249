/**
 * Where an OIDC token comes from for `svc login oauth` and `svc credentials add oauth`: --token
 * <jwt>, --token - (stdin), or --sandbox-token (minted here, naming --issuer/--audience/--subject/
 * --email or the shared defaults). Flag combinations are checked before any request.
 */
import type { Deps } from '../deps.js';
import { readAll } from '../input.js';
import { UsageError } from '../../src/errors.js';
import { SANDBOX_IDENTITY, type SandboxIdentity } from '../../src/auth/oidc-token.js';

export interface TokenFlags {
  token?: string;
  sandboxToken: boolean;
  issuer?: string;
  audience?: string;
  subject?: string;
  email?: string;
}

const IDENTITY_FLAGS = { issuer: '--issuer', audience: '--audience', subject: '--subject', email: '--email' } as const;

/** The identity a minted token names; refuses identity flags without --sandbox-token and --token with it. */
export function sandboxIdentity(opts: TokenFlags): SandboxIdentity | undefined {
  if (opts.sandboxToken && opts.token !== undefined) {
    throw new UsageError('--token and --sandbox-token are two sources of one token: pass one.', {
      input: '--token,--sandbox-token',
    });
  }
  for (const [key, flag] of Object.entries(IDENTITY_FLAGS)) {
    const value = opts[key as keyof typeof IDENTITY_FLAGS];
    if (value !== undefined && !opts.sandboxToken)
      throw new UsageError(`${flag} names a claim of a minted token: it needs --sandbox-token.`, { input: flag });
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} must not be empty.`, { input: flag });
  }
  if (!opts.sandboxToken) return undefined;
  return {
    issuer: opts.issuer ?? SANDBOX_IDENTITY.issuer,
    audience: opts.audience ?? SANDBOX_IDENTITY.audience,
    subject: opts.subject ?? SANDBOX_IDENTITY.subject,
    ...(opts.email !== undefined ? { email: opts.email } : {}),
  };
}

/** --token's value, or stdin's whole content for `-` (trimmed); undefined when absent. */
export async function givenToken(token: string | undefined, deps: Deps): Promise<string | undefined> {
  if (token === undefined) return undefined;
  const text = token === '-' ? (await readAll(deps.io.stdin)).toString('utf8').trim() : token.trim();
  if (text === '')
    throw new UsageError(`--token ${token === '-' ? '- read nothing from stdin' : 'is empty'}.`, { input: '--token' });
  return text;
}
