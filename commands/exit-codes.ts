import { ApiError, AuthRequiredError, InterruptedError, UsageError } from '../src/errors.js';

/** Exit codes that scripts rely on (README "Exit codes"). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The one place that maps an error a command threw to the process exit code. commander's own parse
 * errors never get here: main.ts answers them with exit 2 before anything is rendered, because
 * commander has already printed them.
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthRequiredError) return EXIT.auth;
  if (error instanceof ApiError && error.status === 401) return EXIT.auth;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (isPromptAbort(error)) return EXIT.interrupted;
  return EXIT.failure;
}

/** @inquirer/prompts throws ExitPromptError when the user presses Ctrl-C at a prompt. */
export function isPromptAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
