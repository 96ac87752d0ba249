/** KYC/KYB verifications (verifications.ts, checks.ts, decide.ts, routes.ts) and the hosted link (kyc-link.ts). */
import type { Feature } from '../../kernel/feature.js';
import { kycLinkRoutes, kycLinks } from './kyc-link.js';
import { verificationRoutes } from './routes.js';
import { verifications } from './verifications.js';

export const verificationsFeature: Feature = {
  name: 'verifications',
  routes: [...verificationRoutes, ...kycLinkRoutes],
  tables: [verifications, kycLinks],
  sweep(emu, now) {
    emu.table(kycLinks).deleteWhere((l) => l.expiresAtMs <= now);
  },
};
