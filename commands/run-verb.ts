/**
 * Runs a parsed verb: builds its Deps, calls `run`, and turns whatever it throws into the rendered
 * error and the exit code (commands/exit-codes.ts). In the built CLI this module is in the verbs
 * bundle with the verbs, so the error classes it tests for are the ones the verb threw.
 */
import { createDeps, decideColor, type GlobalOptions } from './deps.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { renderError } from './render-error.js';
import { checkFlagValues } from './flag-values.js';
import { StopFailedError } from '../src/errors.js';
import type { VerbModule, VerbSpec } from './verb.js';
import type { CommandTree } from './command-tree.js';

export async function runVerb(
  verb: VerbModule<never>,
  spec: VerbSpec,
  options: Record<string, unknown>,
  globals: GlobalOptions,
  signal: AbortSignal,
  commands: () => Promise<CommandTree>,
): Promise<number> {
  try {
    // A bad flag value or --jq expression is a usage error before the command sends anything.
    const checked = checkFlagValues(spec, options);
    // Loaded only for --jq: the filter module stays out of every other run.
    const jq = globals.jq !== undefined ? (await import('./jq/compile.js')).compileJq(globals.jq) : undefined;
    await (verb as VerbModule<Record<string, unknown>>).run(checked, createDeps(globals, signal, commands, jq));
    // A command that returns normally after a signal (a server told to stop) stopped cleanly.
    return EXIT.ok;
  } catch (error) {
    // A command that failed to stop cleanly says what went wrong, not merely that it was stopped.
    const interrupted = signal.aborted && !(error instanceof StopFailedError);
    const color = decideColor(globals, process.env, Boolean(process.stderr.isTTY));
    // --jq implies --json for stdout, but a person at a terminal who mistyped a filter reads prose.
    const json = globals.json && !(globals.jq !== undefined && process.stderr.isTTY);
    const render = { stderr: process.stderr, json, verbose: globals.verbose, color, interrupted, spec };
    renderError(error, render);
    return interrupted ? EXIT.interrupted : exitCodeFor(error);
  }
}
