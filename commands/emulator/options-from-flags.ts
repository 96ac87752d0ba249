/**
 * The flags `svc emulator start` was given, as startEmulator's options. Apart from option-flags.ts,
 * which declares them to commander: the verb's module imports this one alone, so the verbs bundle
 * holds no second copy of commander (the command root has it).
 */
import type { OptionFlag } from '../../src/emulator/kernel/option.js';
import { OPTIONS, type EmulatorOptions } from '../../src/emulator/options.js';
import type { FlagKey } from './option-flags.js';

/** An area's declared flags, keyed by the option each sets. */
export function declared(flags: object): [string, OptionFlag<unknown>][] {
  return Object.entries(flags as Record<string, OptionFlag<unknown>>);
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
