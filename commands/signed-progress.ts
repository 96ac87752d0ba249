/**
 * The progress every signed flow shows (otp verify, session refresh, session revoke): one spinner
 * on a terminal (one line per step in logs), the same words for the challenge and for each 200
 * PROCESSING answer, and an honest ending: "Interrupted" after Ctrl-C, never "failed".
 */
import { InterruptedError } from '../src/errors.js';
import type { SignedRequestHooks } from '../src/signing/engine.js';
import type { Progress, UI } from './ui.js';

/** The line shown while the service answers 200 PROCESSING; the same in every signed flow. */
function processingLine(attempt: number): string {
  return `Service still processing (attempt ${attempt}); re-sending the identical signed request`;
}

/** The lines a step run by `SignedProgress.run` shows. */
interface StepLines<T> {
  /** Starts the spinner; left out when the step's hooks start it (a challenge came, a code was typed). */
  start?: string;
  /** Ends the spinner when the step throws ("Interrupted" after Ctrl-C instead). */
  fail: string | ((error: unknown) => string);
  /** Ends it when the step returns; undefined leaves it as it is (a flow that was never signed). */
  succeed?: (result: T) => string | undefined;
  /** What to throw for the step's error (with a hint added); the error itself by default. */
  rethrow?: (error: unknown) => unknown;
}

export interface SignedProgress {
  /**
   * Runs one step under the spinner (gh's RunWithProgress): start, then fail and rethrow, or succeed.
   * A step that throws before its hooks started the spinner ends nothing.
   */
  run<T>(lines: StepLines<T>, step: () => Promise<T>): Promise<T>;
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
  const self: SignedProgress = {
    async run(lines, step) {
      if (lines.start !== undefined) self.start(lines.start);
      let result;
      try {
        result = await step();
      } catch (error) {
        self.fail(error, typeof lines.fail === 'string' ? lines.fail : lines.fail(error));
        throw lines.rethrow ? lines.rethrow(error) : error;
      }
      const done = lines.succeed?.(result);
      if (done !== undefined) self.succeed(done);
      return result;
    },
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
  return self;
}
