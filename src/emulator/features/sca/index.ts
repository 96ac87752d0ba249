/**
 * Strong customer authentication for customers of an SCA region: factors, login and lockout,
 * 2FA reset, beneficiary trust, and the challenges that quotes carry (quotes/sca.ts).
 */
import type { Feature } from '../../kernel/feature.js';
import { factorRoutes } from './factors.js';
import { loginRoutes } from './login.js';
import { scaProfiles } from './profiles.js';
import { resetRoutes, scaResets } from './reset.js';
import { trustRoutes } from './trust.js';

export const scaFeature: Feature = {
  name: 'sca',
  routes: [...factorRoutes, ...loginRoutes, ...resetRoutes, ...trustRoutes],
  tables: [scaProfiles, scaResets],
  sweep(emu, now) {
    // A reset is kept a day after its window closed, for a late status poll.
    emu.table(scaResets).deleteWhere((r) => r.expiresAtMs + 24 * 60 * 60_000 <= now);
  },
};
