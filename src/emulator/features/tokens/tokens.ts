/**
 * API tokens (`/tokens`): each is a working pair of HTTP Basic credentials for this emulator,
 * limited to its permissions (kernel/permissions.ts). The client secret is shown once, at
 * creation; only its SHA-256 is kept (and saved with --state), so it can be checked but never shown.
 * A deleted token stops working at once. The emulator's own credentials are not a token here.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { BasicVerifier } from '../../kernel/auth.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';

export interface TokenRec {
  id: string;
  name: string;
  permissions: string[];
  clientId: string;
  /** SHA-256 hex of the client secret. */
  secretDigest: string;
  createdAt: string;
  updatedAt: string;
}

export const apiTokens = durableTable<TokenRec>('apiTokens', {
  id: 'string',
  name: 'string',
  permissions: 'array',
  clientId: 'string',
  secretDigest: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function renderToken(t: TokenRec): Record<string, unknown> {
  const { secretDigest: _hidden, ...shown } = t;
  return shown;
}

export function tokenOr404(emu: EmulatorContext, id: string): TokenRec {
  const token = emu.table(apiTokens).get(id);
  if (!token) throw notFound('Token', id, 'TOKEN_NOT_FOUND');
  return token;
}

/** A new token and its secret (the only time the secret exists outside the caller). */
export function issueToken(
  emu: EmulatorContext,
  name: string,
  permissions: string[],
): { token: TokenRec; secret: string } {
  const now = emu.iso();
  const id = `Token:${randomUUID()}`;
  const secret = randomBytes(32).toString('base64url');
  const token = emu.table(apiTokens).set(id, {
    id,
    name,
    permissions,
    clientId: `svc_${randomBytes(12).toString('hex')}`,
    secretDigest: digest(secret).toString('hex'),
    createdAt: now,
    updatedAt: now,
  });
  return { token, secret };
}

/** The kernel's Basic check for tokens: the secret compared by digest, in constant time. */
export const tokenCredentials: BasicVerifier = (emu, clientId, secret) => {
  const token = emu.table(apiTokens).find((t) => t.clientId === clientId);
  if (!token || !timingSafeEqual(digest(secret), Buffer.from(token.secretDigest, 'hex'))) return undefined;
  return { kind: 'platform', tokenId: token.id, permissions: token.permissions };
};
