/**
 * `svc emulator start`'s flags, made from the emulator's option list (src/emulator/options.ts): an
 * area that declares an option with a flag gets it here with no edit to the command.
 */
import type { OptionFlag } from '../../src/emulator/kernel/option.js';
import { OPTIONS, type EmulatorOptions } from '../../src/emulator/options.js';
import { flag, type Flag } from '../verb.js';

type Declared = (typeof OPTIONS)[number]['flags'];
/** The options that have a flag; a switch (no `parse`) is a boolean, the rest the flag's text. */
type KeysOf<D> = D extends unknown ? keyof D : never;
type SwitchesOf<D> = D extends unknown
  ? { [K in keyof D]: D[K] extends { parse: unknown } ? never : K }[keyof D]
  : never;
type FlagKey = KeysOf<Declared>;
type SwitchKey = SwitchesOf<Declared>;
type EmulatorFlags = { [K in FlagKey]: Flag<K extends SwitchKey ? boolean : string | undefined> };

function declared(flags: object): [string, OptionFlag<unknown>][] {
  return Object.entries(flags as Record<string, OptionFlag<unknown>>);
}

/** Each declared flag, keyed by the option it sets (`--session-ttl` → sessionTtlSeconds). */
export function emulatorFlags(): EmulatorFlags {
  const flags: Record<string, Flag<unknown>> = {};
  for (const area of OPTIONS) {
    for (const [key, f] of declared(area.flags)) {
      flags[key] = !f.parse
        ? flag.boolean(f.syntax, f.description)
        : f.choices
          ? flag.choices(f.syntax, f.description, f.choices, f.default)
          : f.default !== undefined
            ? flag.withDefault(f.syntax, f.description, f.default)
            : flag.value(f.syntax, f.description);
    }
  }
  return flags as EmulatorFlags;
}

/** The flags given (and the defaults of the rest) as startEmulator's options; a bad value is a UsageError naming its flag. */
export function optionsFromFlags(given: Readonly<Partial<Record<FlagKey, string | boolean>>>): EmulatorOptions {
  const options: Record<string, unknown> = {};
  for (const area of OPTIONS) {
    for (const [key, f] of declared(area.flags)) {
      const value = given[key as FlagKey];
      if (value === undefined) continue;
      options[key] = f.parse ? f.parse(String(value), f.syntax.split(' ')[0]!) : value;
    }
  }
  return options as EmulatorOptions;
}
