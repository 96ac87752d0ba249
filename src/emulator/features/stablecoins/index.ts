/**
 * Stablecoin issuance: provider account links (links.ts), registered stablecoins (coins.ts), mint
 * and burn operations (operations.ts) that move on the clock (lifecycle.ts). An operation still
 * moving when the emulator stopped carries on after a restart with --state.
 */
import type { Feature } from '../../kernel/feature.js';
import { coinRoutes } from './coins.js';
import { scheduleOperation } from './lifecycle.js';
import { linkRoutes } from './links.js';
import { operationRoutes } from './operations.js';
import { operations, providerAccounts, stablecoins } from './records.js';

const FINAL = new Set(['COMPLETED', 'FAILED', 'EXPIRED']);

export const stablecoinsFeature: Feature = {
  name: 'stablecoins',
  routes: [...linkRoutes, ...coinRoutes, ...operationRoutes],
  tables: [providerAccounts, stablecoins, operations],
  resume(emu) {
    for (const op of emu.table(operations).values()) if (!FINAL.has(op.status)) scheduleOperation(emu, op.id);
  },
};
