/** The crypto withdrawal fee estimate (routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { cryptoRoutes } from './routes.js';

export const cryptoFeature: Feature = { name: 'crypto', routes: cryptoRoutes };
