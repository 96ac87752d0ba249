/** Beneficial owners of business customers (owners.ts, routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { owners } from './owners.js';
import { ownerRoutes } from './routes.js';

export const beneficialOwnersFeature: Feature = {
  name: 'beneficial-owners',
  routes: ownerRoutes,
  tables: [owners],
};
