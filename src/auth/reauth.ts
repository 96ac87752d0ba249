/**
 * Marks a 401 of a session-signed call with the credential that logs in again, so whoever shows the
 * error can name the fix (the CLI: the login command for that credential, commands/auth-hints.ts).
 * A 401 before the signed retry is about the API token instead, and is left unmarked.
 */
import { ApiError, type Reauth } from '../errors.js';

export function withReauth<E>(error: E, reauth: Reauth = {}): E {
  if (error instanceof ApiError && error.status === 401 && error.reauth === undefined) error.reauth = reauth;
  return error;
}

/** The fix in plain words, for a caller without commands of its own. */
export function reauthWords(reauth: Reauth = {}): string {
  return `log in again with ${reauth.credentialId ?? 'a credential of the account'}`;
}
