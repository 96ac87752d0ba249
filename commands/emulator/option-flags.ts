/**
 * `svc emulator start`'s flags, made from the emulator's option list (src/emulator/options.ts): an
 * area that declares an option with a flag gets it here with no edit to the command.
 */
import { OPTIONS } from '../../src/emulator/options.js';
import { flag, type Flag } from '../verb.js';
import { declared } from './options-from-flags.js';

type Declared = (typeof OPTIONS)[number]['flags'];
/** The options that have a flag; a switch (no `parse`) is a boolean, the rest the flag's text. */
type KeysOf<D> = D extends unknown ? keyof D : never;
type SwitchesOf<D> = D extends unknown
  ? { [K in keyof D]: D[K] extends { parse: unknown } ? never : K }[keyof D]
  : never;
export type FlagKey = KeysOf<Declared>;
type SwitchKey = SwitchesOf<Declared>;
type EmulatorFlags = { [K in FlagKey]: Flag<K extends SwitchKey ? boolean : string | undefined> };

/** A flag whose value is a file (`--state <file>`): completion offers file names. */
const FILE_VALUE = /<(file|path)>/;

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
            : FILE_VALUE.test(f.syntax)
              ? flag.file(f.syntax, f.description)
              : flag.value(f.syntax, f.description);
    }
  }
  return flags as EmulatorFlags;
}
