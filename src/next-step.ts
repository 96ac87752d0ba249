/**
 * A step the caller can take next, as data: the core says what to do and with which ids, and the
 * CLI spells it as one of its commands (commands/next-step.ts), so the core names no command.
 */
export type NextStep =
  /** The card went live: its details can be shown (a short-lived URL). */
  | { action: 'reveal-card'; cardId: string }
  /** A session is gone or cannot be used: log in again, with this credential (of this type) when known. */
  | { action: 'log-in'; credentialId?: string; type?: string };

/** The log-in step: a session error's fix (src/auth/reauth.ts). */
export type LogIn = Extract<NextStep, { action: 'log-in' }>;
