/**
 * An irreversible verb asks on a terminal and wants --yes elsewhere (a script must say it means
 * it). The refusal comes first, before anything is loaded or sent; the question comes when the
 * verb has checked what it can, so nobody is asked about a request that would be refused anyway.
 */
import type { Deps } from './deps.js';
import { canPrompt } from './deps.js';
import { CancelledError, UsageError } from '../src/errors.js';

export interface Irreversible {
  /** Asks `question` (default no) unless --yes was given; a "no" ends with "Cancelled: nothing was <undone>." */
  confirm(question: string, undone: string): Promise<void>;
}

/** `doing` names the act for the refusal, e.g. "Revoking Session:…". */
export function irreversible(deps: Pick<Deps, 'io' | 'globals' | 'env' | 'prompter'>, doing: string): Irreversible {
  const ask = !deps.globals.yes;
  if (ask && !canPrompt(deps)) {
    throw new UsageError(`${doing} cannot be undone: pass --yes to confirm (svc cannot ask here).`, {
      input: '--yes',
    });
  }
  return {
    async confirm(question, undone) {
      if (ask && !(await deps.prompter.confirm({ message: question, default: false })))
        throw new CancelledError(`Cancelled: nothing was ${undone}.`);
    },
  };
}
