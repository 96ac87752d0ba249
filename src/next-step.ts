/**
 * A step the caller can take next, as data: the core says what to do and with which ids, and the
 * CLI spells it as one of its commands (commands/next-step.ts), so the core names no command.
 */
export type NextStep =
  /** The card went live: its details can be shown (a short-lived URL). */
  { action: 'reveal-card'; cardId: string };
