/**
 * From the input an error names (src/errors.ts: the option key a verb spec uses, or a label the
 * caller chose) to what the user typed for it: `baseUrl` → `--base-url`, `path` → `<path>`. The core
 * never spells flags, so renaming one is an edit to its spec alone.
 */
import { GLOBAL_FLAGS } from './global-flags.js';
import { longFlag, type VerbSpec } from './verb.js';

/** `<path>`, `[path]`, `[ids...]` → `<path>`, `<ids>`: how help shows the argument. */
function argName(syntax: string): string {
  return `<${syntax.replace(/^[<[]|(\.\.\.)?[\]>]$/g, '')}>`;
}

/**
 * The flag or argument syntax of one input: the verb's own flag or argument first, then a global
 * flag; anything else (a label, a syntax already spelled out) is returned as it is.
 */
export function syntaxOf(input: string, spec: VerbSpec | undefined): string {
  const flags = spec?.flags ?? {};
  if (Object.hasOwn(flags, input)) return longFlag(flags[input]!.syntax);
  const args = spec?.args ?? {};
  if (Object.hasOwn(args, input)) return argName(args[input]!.syntax);
  if (Object.hasOwn(GLOBAL_FLAGS, input)) return longFlag(GLOBAL_FLAGS[input as keyof typeof GLOBAL_FLAGS].syntax);
  return input;
}

/** Every input of an error that names several (`quote, amount`), each as its syntax, separators kept. */
export function inputSyntax(input: string, spec: VerbSpec | undefined): string {
  return input
    .split(/(,\s*)/)
    .map((part, i) => (i % 2 === 0 ? syntaxOf(part, spec) : part))
    .join('');
}

/** A message with the input's name in front (`--amount: Must be at least 1`), unless it names it already. */
export function namedMessage(name: string, message: string): string {
  return message.includes(name) ? message : `${name}: ${message}`;
}
