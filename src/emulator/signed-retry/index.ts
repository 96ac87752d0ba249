/**
 * The two-step signed retry shared by every signed endpoint (flow.ts), registered like an area so
 * its table of pending challenges is created and swept by the kernel.
 */
import type { Feature } from '../kernel/feature.js';
import { pendingRequests } from './flow.js';

export { createChallenge, signedFlow, pendingRequests, type SignedFlow } from './flow.js';

export const signedRetry: Feature = {
  name: 'signed-retry',
  tables: [pendingRequests],
  sweep(emu, now) {
    emu.table(pendingRequests).deleteWhere((p) => p.expiresAtMs <= now);
  },
};
