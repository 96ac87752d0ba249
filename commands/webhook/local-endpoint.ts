/**
 * With the `local` profile (the embedded emulator), `webhook listen` points the emulator's deliveries
 * at itself with PATCH /config {webhookEndpoint}, so `svc emulator start` + `svc webhook listen` is
 * all it takes. Other profiles are real services: their endpoint is the integrator's to set.
 */
import type { Deps } from '../deps.js';
import { createClient } from '../../src/http/index.js';
import { resolveEndpoint, type SelectedProfile } from '../../src/store/resolve.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';

/** Registers `url`; returns the base URL it registered with, or undefined if the profile is not `local`. */
export async function registerWithLocalEmulator(ctx: SelectedProfile | undefined, url: string, deps: Pick<Deps, 'env' | 'globals' | 'signal'>): Promise<string | undefined> {
  if (!ctx || ctx.name !== LOCAL_PROFILE) return undefined;
  const { baseUrl, auth } = await resolveEndpoint(deps.env, { baseUrl: deps.globals.baseUrl }, () => ctx);
  const client = createClient({ baseUrl, auth, env: deps.env, timeoutMs: 10_000 });
  await client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: url }, signal: deps.signal });
  return baseUrl;
}
