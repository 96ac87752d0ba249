/** Same-currency transfers (deprecated): transfer-in (a pull) and transfer-out (a payout). */
import type { Feature } from '../../kernel/feature.js';
import { transferRoutes } from './routes.js';

export const transfersFeature: Feature = { name: 'transfers', routes: transferRoutes };
