/** Receiver look-ups: what a UMA address or an external account can receive (routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { receiverRoutes } from './routes.js';

export const receiverFeature: Feature = { name: 'receiver', routes: receiverRoutes };
