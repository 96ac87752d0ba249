/**
 * The commander wiring of the verb specs (verb.ts): declaring a spec's arguments, flags and help on
 * a command, and mapping what commander parsed back to the options `run` receives. Only the command
 * root (program.ts) imports it, so commander stays out of the verbs bundle.
 */
import { Option, type Command } from 'commander';
import type { Flags, VerbSpec } from './verb.js';

/** Gives `command` the spec's arguments, flags and help text. */
export function declare(command: Command, spec: VerbSpec): Command {
  command.description(spec.description);
  const args = Object.values(spec.args ?? {});
  for (const a of args) command.argument(a.syntax, a.description);
  // Commander's own checks would take "-----BEGIN…" for a flag: checkDashArgs makes them instead.
  if (args.some((a) => a.dashes)) command.allowUnknownOption().allowExcessArguments();
  addFlags(command, spec.flags ?? {});
  if (spec.help) command.addHelpText('after', spec.help);
  return command;
}

/** Gives `command` these flags as commander options (the root's global flags, a verb's own). */
export function addFlags(command: Command, flags: Flags): void {
  for (const f of Object.values(flags)) {
    const option = new Option(f.syntax, f.description);
    if (f.default !== undefined) option.default(f.default);
    // A required flag is checked by flag-values.ts, so that every missing one is named in one run.
    if (f.kind === 'repeatable')
      option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(option);
  }
}

const FLAG_SHAPED = /^--?[A-Za-z]/;

/**
 * The checks declare() turned off for a verb whose value may begin with '-', made on the words
 * commander kept: one shaped like a flag is an unknown option (unless it came after `--`, which
 * makes every word a value), and one past the declared arguments is too many. Same errors, same
 * codes as commander's own.
 */
export function checkDashArgs(command: Command, spec: VerbSpec, argv: readonly string[]): void {
  const end = argv.indexOf('--');
  const literal = end === -1 ? [] : argv.slice(end + 1);
  const flag = command.args.find((word) => FLAG_SHAPED.test(word) && !literal.includes(word));
  if (flag !== undefined)
    command.error(`error: unknown option '${flag}' (a value that begins with '-' goes after --)`, {
      code: 'commander.unknownOption',
    });
  const expected = Object.keys(spec.args ?? {}).length;
  if (command.args.length > expected)
    command.error(
      `error: too many arguments for '${command.name()}'. Expected ${expected} argument${expected === 1 ? '' : 's'} but got ${command.args.length}.`,
      { code: 'commander.excessArguments' },
    );
}

/**
 * The options `run` receives, from what commander parsed: positionals by the spec's order, flags by
 * the name commander gives each (`--private-key-file` → privateKeyFile, `--no-profile` → profile).
 */
export function optionsFrom(
  spec: VerbSpec,
  positionals: readonly unknown[],
  parsed: Record<string, unknown>,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  Object.entries(spec.args ?? {}).forEach(([key, a], i) => {
    options[key] = a.syntax.endsWith('...]') ? (positionals[i] ?? []) : positionals[i];
  });
  for (const [key, f] of Object.entries(spec.flags ?? {})) {
    const value = parsed[new Option(f.syntax).attributeName()];
    if (f.kind === 'repeatable') options[key] = Array.isArray(value) ? value : [];
    else options[key] = f.kind === 'boolean' ? value === true : f.kind === 'negatable' ? value !== false : value;
  }
  return options;
}
