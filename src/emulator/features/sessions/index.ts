/** Sessions: list, signed revoke, signed refresh. Sessions that ended a day ago are forgotten. */
import { defineFeature } from '../../kernel/feature.js';
import { refreshRoutes } from './refresh.js';
import { sessionRoutes } from './routes.js';
import { indexSession, sessionKeys, sessions } from './sessions.js';
import { sessionTestHooks } from './testing.js';

const DAY_MS = 24 * 3600 * 1000;

export const sessionsFeature = defineFeature({
  name: 'sessions',
  routes: [...sessionRoutes, ...refreshRoutes],
  tables: [sessions, sessionKeys],
  resume(emu) {
    for (const session of emu.table(sessions).values()) indexSession(emu, session);
  },
  sweep(emu, now) {
    const dayAgo = now - DAY_MS;
    emu.table(sessions).deleteWhere((s) => {
      const dead = s.expiresAtMs < dayAgo || (s.revokedAtMs ?? Infinity) < dayAgo;
      if (dead) emu.table(sessionKeys).get(s.publicKey)?.delete(s.id);
      return dead;
    });
  },
  testing: sessionTestHooks,
});
