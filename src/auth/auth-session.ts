/**
 * The AuthSession resource (spec "AuthSession") and the checks we apply before trusting one that
 * came off the wire: every later step (storing a key, making a session active) relies on its id,
 * account and expiry being the right shape, so a malformed answer is refused here, not later.
 */
import { ApiError } from '../errors.js';
import { idPattern } from '../validate.js';
import { isDateTime } from '../date-time.js';

export interface AuthSession {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  credentialId?: string;
  /** Legacy flow only; never stored, never printed. */
  encryptedSessionSigningKey?: string;
}

/** Throws an ApiError naming the first field that does not match the spec's AuthSession shape. */
export function parseAuthSession(body: unknown, ctx: { method: string; path: string; status: number }): AuthSession {
  const { method, path, status } = ctx;
  const bad = (what: string) =>
    new ApiError({
      status,
      code: 'INVALID_RESPONSE',
      message: `${method} ${path} returned a body that is not an AuthSession: ${what}`,
      method,
      path,
      hint: 'Check that the base URL points at the payments service or the emulator.',
    });
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('expected a JSON object');
  const o = body as Record<string, unknown>;
  if (typeof o.id !== 'string' || !idPattern('Session').test(o.id)) throw bad('id must be Session:<uuid>');
  if (typeof o.accountId !== 'string' || !idPattern('InternalAccount').test(o.accountId))
    throw bad('accountId must be InternalAccount:<uuid>');
  if (typeof o.expiresAt !== 'string' || !isDateTime(o.expiresAt)) throw bad('expiresAt must be a date-time');
  for (const field of ['type', 'nickname'] as const)
    if (typeof o[field] !== 'string') throw bad(`${field} must be a string`);
  return o as unknown as AuthSession;
}

/** The session without key material, for JSON output and logs. */
export function publicView(session: AuthSession): Omit<AuthSession, 'encryptedSessionSigningKey'> {
  const { encryptedSessionSigningKey: _sealed, ...rest } = session;
  return rest;
}

export function isExpired(expiresAt: string, now: number): boolean {
  return Date.parse(expiresAt) <= now;
}
