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
  for (const a of Object.values(spec.args ?? {})) command.argument(a.syntax, a.description);
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
