/**
 * The progress every signed flow shows (otp verify, session refresh, session revoke): one spinner
 * on a terminal (one line per step in logs), the same words for the challenge and for each 200
 * PROCESSING answer, and an honest ending: "Interrupted" after Ctrl-C, never "failed".
 */
import { InterruptedError } from '../src/errors.js';
import type { SignedRequestHooks } from '../src/signing/engine.js';
import type { Progress, UI } from './ui.js';

/** The line shown while the service answers 200 PROCESSING; the same in every signed flow. */
export function processingLine(attempt: number): string {
  return `Service still processing (attempt ${attempt}); re-sending the identical signed request`;
}

export interface SignedProgress {
  /** Starts (or restarts) the spinner; the OTP flow starts it only once the code is in hand. */
  start(text: string): void;
  /** Hooks for signedRequest: they update the spinner when one is running. */
  hooks: SignedRequestHooks;
  succeed(text: string): void;
  /** Ends the spinner for a thrown error: "Interrupted" when Ctrl-C caused it, else `text`. */
  fail(error: unknown, text: string): void;
}

export function signedProgress(ui: UI, signal: AbortSignal, signer = 'the session key'): SignedProgress {
  let progress: Progress | undefined;
  const end = (finish: (p: Progress) => void) => {
    if (progress) finish(progress);
    progress = undefined;
  };
  return {
    start(text) {
      end((p) => p.stop());
      progress = ui.progress(text);
    },
    hooks: {
      onChallenge: (c) => progress?.update(`Signing challenge ${c.requestId} with ${signer}`),
      onProcessing: (attempt) => progress?.update(processingLine(attempt)),
    },
    succeed: (text) => end((p) => p.succeed(text)),
    fail(error, text) {
      const interrupted =
        signal.aborted || error instanceof InterruptedError || (error as Error)?.name === 'ExitPromptError';
      end((p) => p.fail(interrupted ? 'Interrupted' : text));
    },
  };
}
