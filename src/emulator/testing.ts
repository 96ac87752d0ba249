/**
 * Test hooks of a running emulator (`emulator.testing`): the kernel's own (the clock, the webhook
 * queue, any area's table) and those each area declares (`Feature.testing`: a session for a known
 * key, a registered passkey…), acting on the same state the HTTP API uses. Not part of the service.
 */
import type { EmulatorContext } from './kernel/context.js';
import type { AnyFeature } from './kernel/feature.js';
import type { Fixtures } from './kernel/fixtures.js';
import type { Table, TableDef } from './kernel/tables.js';
import type { AreaTestHooks } from './features.js';

export interface KernelTestHooks {
  /** Webhook deliveries still queued (not yet acknowledged with 2xx/409). */
  pendingWebhooks(): number;
  /** The queued deliveries: how many attempts each has had and when (emulator time) the next one is due. */
  webhookQueue(): { id: string; type: string; attempts: number; nextAttemptAtMs: number }[];
  /** Moves the emulator's clock forward by ms; every timer due on the way fires first (as POST /_emulator/clock/advance). */
  advanceClock(ms: number): void;
  /** The emulator's current time, epoch ms. */
  now(): number;
  /** An area's table itself (growth tests fill one with thousands of records without the HTTP round trips). */
  table<T>(def: TableDef<T>): Table<T>;
}

/** `emulator.testing`: the kernel's hooks and every area's. */
export type TestingHooks = KernelTestHooks & AreaTestHooks;

/** The kernel's hooks with each of `features`' own (their types: TestHooksOf in kernel/feature.ts). */
export function testingHooks(
  emu: EmulatorContext,
  fixtures: Fixtures,
  features: readonly AnyFeature[],
): KernelTestHooks {
  const kernel: KernelTestHooks = {
    pendingWebhooks: () => emu.outbox.pendingCount(),
    webhookQueue: () =>
      emu.core.outbox.map(({ id, type, attempts, nextAttemptAtMs }) => ({ id, type, attempts, nextAttemptAtMs })),
    advanceClock: (ms) => emu.clock.advance(ms),
    now: () => emu.now(),
    table: (def) => emu.table(def),
  };
  return Object.assign(kernel, ...features.map((f) => f.testing?.(emu, fixtures) ?? {})) as KernelTestHooks;
}
