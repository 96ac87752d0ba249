/**
 * `GET /customers/end-user-terms`: the current End User Terms. The emulator's terms are a version
 * named after the API version and a page on the emulator's own domain (it serves no such page).
 */
import type { Feature } from '../../kernel/feature.js';

const END_USER_TERMS = { version: '2025-10-13', url: 'https://terms.svc.test/end-user-terms/2025-10-13' };

export const endUserTermsFeature: Feature = {
  name: 'end-user-terms',
  routes: [
    {
      method: 'GET',
      path: '/customers/end-user-terms',
      permission: 'VIEW',
      handler: () => ({ status: 200, body: END_USER_TERMS }),
    },
  ],
};
