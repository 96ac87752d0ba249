/**
 * Marks a 401 of a session-signed call with the login that fixes it (a NextStep, src/next-step.ts),
 * so whoever shows the error can name it (the CLI: the login command for that credential). A 401
 * before the signed retry is about the API token instead, and is left unmarked.
 */
import { ApiError } from '../errors.js';
import type { LogIn } from '../next-step.js';

/** The credential a login would use, when known. */
export type Credential = Omit<LogIn, 'action'>;

export function withReauth<E>(error: E, credential: Credential = {}): E {
  if (error instanceof ApiError && error.status === 401 && error.next === undefined)
    error.next = { action: 'log-in', ...credential };
  return error;
}

/** The fix in plain words, for a caller without commands of its own. */
export function reauthWords(credential: Credential = {}): string {
  return `log in again with ${credential.credentialId ?? 'a credential of the account'}`;
}
