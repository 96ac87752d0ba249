/**
 * With the `local` profile (the embedded emulator), `webhook listen` points the emulator's deliveries
 * at itself (src/webhook/emulator-endpoint.ts), so `svc emulator start` + `svc webhook listen` is
 * all it takes. Other profiles are real services: their endpoint is the integrator's to set.
 */
import type { Deps } from '../deps.js';
import { createClient } from '../../src/http/index.js';
import { resolveEndpoint, type SelectedProfile } from '../../src/store/resolve.js';
import type { ListenerConfig } from '../../src/webhook/listener.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';

/**
 * How the listener reaches the local emulator; undefined if the profile is not `local`. The profile
 * is read again for every call: a new emulator (`svc emulator start`) rewrites it with its own
 * credentials and webhook key.
 */
export async function localEmulator(
  deps: Pick<Deps, 'env' | 'globals'>,
  profile: () => Promise<SelectedProfile | undefined>,
  keyFromProfile: boolean,
): Promise<ListenerConfig['emulator']> {
  const ctx = await profile();
  if (!ctx || ctx.name !== LOCAL_PROFILE) return undefined;
  const latest = async () => (await profile()) ?? ctx;
  return {
    access: {
      async client() {
        const selected = await latest();
        const { baseUrl, auth } = await resolveEndpoint(deps.env, { baseUrl: deps.globals.baseUrl }, () => selected);
        // Short limits: these calls happen at start, every few seconds, and on Ctrl-C.
        return createClient({ baseUrl, auth, env: deps.env, timeoutMs: 3000 });
      },
      profileKey: async () => (await latest()).stored?.webhookPublicKey,
    },
    intervalMs: checkInterval(deps.env),
    keyFromProfile,
  };
}

/** SVC_WEBHOOK_CHECK_MS: how often the local emulator is checked (default 3000 ms). */
function checkInterval(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.SVC_WEBHOOK_CHECK_MS);
  return Number.isInteger(ms) && ms >= 100 ? ms : 3000;
}
