/**
 * How an area declares its `startEmulator` options (miniflare's plugin options): what a caller may
 * pass, how each value is checked and defaulted, and the `svc emulator start` flags that set them.
 * Areas with options are listed in ../options.ts. The CLI builds its flags from that list, so this
 * module and every area's options.ts load with each command: they import nothing heavy.
 */
import { UsageError } from '../../errors.js';

/** One `emulator start` flag setting one option. */
export interface OptionFlag<T> {
  /** commander's syntax: `--card-issuance <outcome>`, or `--duplicate-deliveries` for a switch (true when given). */
  syntax: string;
  description: string;
  /** The text the flag has when absent, shown in help. */
  default?: string;
  /** The only words it takes, offered by shell completion (`parse` still checks them). */
  choices?: readonly string[];
  /** The flag's text as the option's value; throws a UsageError naming `flag`. Absent for a switch. */
  parse?: (text: string, flag: string) => T;
}

/** An area's options: `In` is what startEmulator takes, `Out` what the area's handlers read as `emu.opts`. */
export interface AreaOptions<In extends object, Out extends object> {
  /** The `emulator start` flags, keyed by the option each sets. */
  flags: { [K in keyof In]?: OptionFlag<Exclude<In[K], undefined>> };
  /** Every option checked (a UsageError naming it) and defaulted. */
  resolve(options: In): Out;
}

/** `value` (undefined: `fallback`) as a safe integer of at least min, or a UsageError naming `field`. */
export function count(value: number | undefined, fallback: number, field: string, min = 0): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${field} must be an integer >= ${min}`, { input: field });
  return n;
}

/** A flag parser for a whole number from min to max. */
export function integerText(min: number, max = Number.MAX_SAFE_INTEGER): (text: string, flag: string) => number {
  return (value, flag) => {
    const text = value.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || n > max) {
      throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`, {
        input: flag,
      });
    }
    return n;
  };
}

/** A flag parser for one of a few words. */
export function oneOf<const W extends string>(words: readonly W[]): (text: string, flag: string) => W {
  return (text, flag) => {
    if (!(words as readonly string[]).includes(text)) {
      throw new UsageError(`${flag} must be ${words.join(' or ')}, got ${JSON.stringify(text)}`, { input: flag });
    }
    return text as W;
  };
}
