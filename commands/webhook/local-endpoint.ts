/**
 * With the `local` profile (the embedded emulator), `webhook listen` points the emulator's deliveries
 * at itself with PATCH /config {webhookEndpoint}, so `svc emulator start` + `svc webhook listen` is
 * all it takes. It says which endpoint it replaces, puts that one back when it stops (unless someone
 * else has taken over meanwhile), and can check that the emulator still delivers to it. Other
 * profiles are real services: their endpoint is the integrator's to set.
 */
import type { Deps } from '../deps.js';
import { createClient } from '../../src/http/index.js';
import type { ApiClient } from '../../src/http/types.js';
import { resolveEndpoint, type SelectedProfile } from '../../src/store/resolve.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';

export interface LocalEndpoint {
  /** The emulator's base URL. */
  baseUrl: string;
  /** The endpoint this listener replaced (undefined: none was set). */
  previous: string | undefined;
  /** The emulator's endpoint now, or undefined when it cannot be asked (unreachable, refused). */
  current(): Promise<string | null | undefined>;
  /** Points the emulator at `url` again (after it lost its endpoint). */
  register(): Promise<void>;
  /** Puts `previous` back if the endpoint is still this listener's; says what it did. */
  restore(): Promise<string | undefined>;
}

type ConfigBody = { webhookEndpoint?: string | null };

/**
 * Registers `url`; undefined if the profile is not `local`. Throws if the emulator cannot be reached.
 * `profile` is read again for every later call: a new emulator (`svc emulator start`) rewrites the
 * local profile with its own credentials.
 */
export async function takeOverLocalEndpoint(
  ctx: SelectedProfile | undefined,
  url: string,
  deps: Pick<Deps, 'env' | 'globals' | 'signal'>,
  profile: () => Promise<SelectedProfile | undefined>,
): Promise<LocalEndpoint | undefined> {
  if (!ctx || ctx.name !== LOCAL_PROFILE) return undefined;
  const clientFor = async (selected: SelectedProfile): Promise<ApiClient> => {
    const { baseUrl, auth } = await resolveEndpoint(deps.env, { baseUrl: deps.globals.baseUrl }, () => selected);
    // Short limits: these calls happen at start, every few seconds, and on Ctrl-C.
    return createClient({ baseUrl, auth, env: deps.env, timeoutMs: 3000 });
  };
  const first = await clientFor(ctx);
  const latest = async () => clientFor((await profile()) ?? ctx);
  const read = async (client: ApiClient, signal?: AbortSignal) =>
    (await client.request<ConfigBody>({ method: 'GET', path: '/config', signal })).body.webhookEndpoint ?? null;
  const write = (client: ApiClient, endpoint: string | null) =>
    client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: endpoint } });

  const before = await read(first, deps.signal);
  const previous = before !== null && before !== url ? before : undefined;
  await write(first, url);
  return {
    baseUrl: first.baseUrl,
    previous,
    current: async () => read(await latest()).catch(() => undefined),
    register: async () => {
      await write(await latest(), url);
    },
    async restore() {
      const client = await latest();
      if ((await read(client)) !== url) return undefined; // another listener (or the user) took over: theirs now
      await write(client, previous ?? null);
      return previous
        ? `Restored the emulator's webhook endpoint to ${previous}`
        : "Cleared the emulator's webhook endpoint (none was set before)";
    },
  };
}
