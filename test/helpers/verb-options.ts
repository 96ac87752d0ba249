/**
 * The options a verb's run() receives when the command line gives none of its flags, derived from
 * the verb's one declaration (defaults, negatable flags on, repeatable flags empty), with `given`
 * on top: tests that call run() directly state only what they mean, and a new flag needs no edit.
 */
import { Option } from 'commander';
import { optionsFrom } from '../../commands/declare.js';
import type { OptionsOf, VerbSpec } from '../../commands/verb.js';

export function optionsWith<S extends VerbSpec>(spec: S, given: Partial<OptionsOf<S>>): OptionsOf<S> {
  const defaults = Object.fromEntries(
    Object.values(spec.flags ?? {})
      .filter((f) => f.default !== undefined)
      .map((f) => [new Option(f.syntax).attributeName(), f.default]),
  );
  return { ...optionsFrom(spec, [], defaults), ...given } as OptionsOf<S>;
}
