/** Contact verification of customers in regions that require it (routes.ts). */
import type { Feature } from '../../kernel/feature.js';
import { contactVerificationRoutes, sentCodes } from './routes.js';

export const contactVerificationFeature: Feature = {
  name: 'contact-verification',
  routes: contactVerificationRoutes,
  tables: [sentCodes],
  sweep(emu, now) {
    emu.table(sentCodes).deleteWhere((sent) => sent.expiresAtMs <= now);
  },
};
