/**
 * Runs a parsed verb: builds its Deps, calls `run`, and turns whatever it throws into the rendered
 * error and the exit code (commands/exit-codes.ts). In the built CLI this module is in the verbs
 * bundle with the verbs, so the error classes it tests for are the ones the verb threw.
 */
import { createDeps, decideColor, type GlobalOptions } from './deps.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { renderError } from './render-error.js';
import type { VerbModule } from './verb.js';

export async function runVerb(
  verb: VerbModule<never>,
  options: Record<string, unknown>,
  globals: GlobalOptions,
  signal: AbortSignal,
): Promise<number> {
  try {
    // A bad --jq expression is a usage error before the command sends anything.
    if (globals.jq !== undefined) (await import('./jq.js')).compileJq(globals.jq);
    await (verb as VerbModule<Record<string, unknown>>).run(options, createDeps(globals, signal));
    // A command that returns normally after a signal (a server told to stop) stopped cleanly.
    return EXIT.ok;
  } catch (error) {
    const interrupted = signal.aborted;
    const color = decideColor(globals, process.env, Boolean(process.stderr.isTTY));
    renderError(error, { stderr: process.stderr, json: globals.json, verbose: globals.verbose, color, interrupted });
    return interrupted ? EXIT.interrupted : exitCodeFor(error);
  }
}
