/**
 * `--jq <expr>`: the jq that people type after gh's --jq, on svc's --json output: paths, slices,
 * `..`, pipes, `,`, `//`, array and object construction, comparisons, arithmetic, `if`, string
 * interpolation, @csv/@tsv and the common builtins (builtins.ts). Each result prints on its own
 * line; strings print raw. Checked against the real jq by test/unit/jq-differential.test.ts.
 * Our own, small and dependency-free: the jq ports on npm measured wrong on `//` and on indexing
 * errors, or lacked map/select/join, and the WebAssembly builds weigh more than the whole package.
 * Anything outside the subset is a usage error naming it, reported before any request; this module
 * loads only when --jq is given (run-verb.ts compiles the filter and hands it to the ui).
 */
import { SvcError, UsageError } from '../../src/errors.js';
import { JqRuntimeError, JqSyntaxError } from './errors.js';
import { parse } from './parser.js';
import { JQ_SUBSET } from './subset.js';
import type { Json } from './values.js';

/** A compiled filter: the lines it prints for one JSON document, one at a time. */
export type JqFilter = (value: unknown) => Iterable<string>;

/** Compiles `expr`, or throws the usage error (exit 2) saying what in it is wrong or unsupported. */
export function compileJq(expr: string): JqFilter {
  let filter: ReturnType<typeof parse>;
  try {
    filter = parse(expr);
  } catch (error) {
    if (!(error instanceof JqSyntaxError)) throw error;
    throw new UsageError(`--jq ${JSON.stringify(expr)}: ${error.message}`, {
      input: '--jq',
      hint: `Supported: ${JQ_SUBSET}.`,
    });
  }
  return function* (value) {
    try {
      for (const r of filter(value as Json)) yield typeof r === 'string' ? r : JSON.stringify(r);
    } catch (error) {
      if (!(error instanceof JqRuntimeError)) throw error;
      // Found only once the command has done its work (a payment sent, a session stored): exit 1,
      // not the 2 of input refused before any request.
      throw new SvcError(`--jq ${JSON.stringify(expr)}: ${error.message}`, {
        hint: 'The command itself ran; only the filter failed on its output. Add ? to a path (.a?) to skip what does not fit.',
      });
    }
  };
}
