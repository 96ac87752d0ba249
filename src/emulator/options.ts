/**
 * Every set of startEmulator options, one line per area that has any (the kernel's first). The
 * kernel resolves them into `emu.opts`; `svc emulator start` makes its flags from this list
 * (commands/emulator/option-flags.ts), so it loads with every command: each entry is an area's
 * light options.ts, never its index.
 */
import type { Intersection } from './kernel/feature.js';
import type { AreaOptions } from './kernel/option.js';
import { kernelOptions } from './kernel/options.js';
import { signedRetryOptions } from './signed-retry/options.js';
import { sessionsOptions } from './features/sessions/options.js';
import { cardsOptions } from './features/cards/options.js';
import { transactionsOptions } from './features/transactions/options.js';

export const OPTIONS = [kernelOptions, signedRetryOptions, sessionsOptions, cardsOptions, transactionsOptions] as const;

type Each = (typeof OPTIONS)[number];

/** What startEmulator takes: every area's options. */
export type EmulatorOptions = Intersection<Each extends AreaOptions<infer In, object> ? In : never>;
/** What handlers read as `emu.opts`: every option checked and defaulted. */
export type ResolvedOptions = Intersection<Each extends AreaOptions<object, infer Out> ? Out : never>;

export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  return Object.assign({}, ...OPTIONS.map((area) => area.resolve(options))) as ResolvedOptions;
}
