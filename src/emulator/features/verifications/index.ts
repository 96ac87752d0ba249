/** KYC/KYB verifications (verifications.ts, checks.ts, decide.ts, routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { verificationRoutes } from './routes.js';
import { verifications } from './verifications.js';

export const verificationsFeature: Feature = {
  name: 'verifications',
  routes: verificationRoutes,
  tables: [verifications],
};
