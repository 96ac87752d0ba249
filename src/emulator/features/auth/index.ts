/**
 * Credentials: registration (OTP, OAuth, passkey; the signed add), list and signed revoke; OTP,
 * passkey and OAuth challenge and verify. The fixture is an EMAIL_OTP credential on the fixture account.
 */
import { defineFeature } from '../../kernel/feature.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { authMethods, type AuthMethodRec } from './credentials.js';
import { usedRegistrationChallenges } from './drafts.js';
import { manageRoutes } from './manage.js';
import { otpTargets } from './otp.js';
import { passkeyChallenges } from './passkey.js';
import { registerRoutes } from './register.js';
import { credentialRoutes } from './routes.js';
import { authTestHooks } from './testing.js';
import { newId } from '../../kernel/ids.js';

const DAY_MS = 24 * 3600 * 1000;

export const authFeature = defineFeature({
  name: 'auth',
  routes: [...registerRoutes, ...manageRoutes, ...credentialRoutes],
  tables: [authMethods, otpTargets, passkeyChallenges, usedRegistrationChallenges],
  sweep(emu, now) {
    for (const [id, targets] of emu.table(otpTargets).entries())
      emu.table(otpTargets).set(
        id,
        targets.filter((t) => t.expiresAtMs > now),
      );
    emu.table(passkeyChallenges).deleteWhere((c) => c.expiresAtMs <= now);
    // A platform's registration challenge is short-lived; a day later a replay fails its own checks anyway.
    emu.table(usedRegistrationChallenges).deleteWhere((u) => u.usedAtMs < now - DAY_MS);
  },
  fixtureKeys: ['credentialId'],
  fixtures(emu, made: Partial<Fixtures<'credentialId' | 'accountId' | 'email'>>) {
    const existing = made.credentialId ? emu.table(authMethods).get(made.credentialId) : undefined;
    if (existing && existing.accountId === made.accountId) return {};
    const now = emu.iso();
    const credential: AuthMethodRec = {
      id: newId('AuthMethod'),
      accountId: made.accountId!,
      type: 'EMAIL_OTP',
      nickname: made.email!,
      createdAt: now,
      updatedAt: now,
    };
    emu.table(authMethods).set(credential.id, credential);
    return { credentialId: credential.id };
  },
  testing: authTestHooks,
});
