/** Delegated signing keys of card funding sources (keys.ts, routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { delegatedKeys } from './keys.js';
import { delegatedKeyRoutes } from './routes.js';

export const delegatedKeysFeature: Feature = {
  name: 'delegated-keys',
  routes: delegatedKeyRoutes,
  tables: [delegatedKeys],
};
