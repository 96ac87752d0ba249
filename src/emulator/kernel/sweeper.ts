/**
 * The sweeper: every SWEEP_INTERVAL_MS of virtual time the kernel (Idempotency-Key answers) and each
 * feature forget what has no use any more (expired challenges, reveal links, long-dead sessions). It runs on the clock, so a jump of
 * the clock sweeps as real time would.
 */
import type { EmulatorContext } from './context.js';
import type { AnyFeature } from './feature.js';
import { forgetExpiredAnswers } from './idempotency.js';

const SWEEP_INTERVAL_MS = 10_000;

export function startSweeper(emu: EmulatorContext, features: readonly AnyFeature[]): void {
  const sweepers = features.filter((f) => f.sweep);
  const run = () => {
    const now = emu.now();
    forgetExpiredAnswers(emu, now);
    for (const feature of sweepers) feature.sweep!(emu, now);
  };
  run();
  emu.clock.every(SWEEP_INTERVAL_MS, run);
}
