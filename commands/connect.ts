/**
 * The one place a command gets its API client: flags, then environment, then the profile
 * (src/store/resolve.ts). `--verbose` logs method, path, status and timing to stderr; the client
 * never hands headers or bodies to the log, so secrets cannot leak there.
 *
 * This module does not load the store (conf costs ~70 ms to load): commands that need the store
 * open it themselves and pass it in, and `connectClient` opens it only when flags and environment
 * leave something for the profile to supply.
 */
import type { Deps } from './deps.js';
import { createClient, type ApiClient, type Auth, type HttpLogEntry } from '../src/http/index.js';
import { resolveConnection, resolveFromEnvironment } from '../src/store/resolve.js';
import type { Profile, Store } from '../src/store/types.js';

export interface Connection {
  store: Store;
  client: ApiClient;
  profileName: string;
  profile: Profile;
  baseUrl: string;
}

function client(deps: Deps, baseUrl: string, auth: Auth): ApiClient {
  const log = deps.globals.verbose
    ? (e: HttpLogEntry) => deps.io.stderr.write(`→ ${e.method} ${e.path} ${e.status ?? e.error ?? ''} (${Math.round(e.ms)} ms)\n`)
    : undefined;
  return createClient({ baseUrl, auth, log, env: deps.env });
}

/** Client plus the profile it came from, for commands that also read or write the store. */
export function connect(deps: Deps, store: Store): Connection {
  const { profileName, profile, baseUrl, auth } = resolveConnection(store, deps.env, {
    profile: deps.globals.profile,
    baseUrl: deps.globals.baseUrl,
  });
  return { store, client: client(deps, baseUrl, auth), profileName, profile, baseUrl };
}

/** Just the API client (sandbox, cards): in CI, with everything in the environment, no store is opened. */
export async function connectClient(deps: Deps): Promise<ApiClient> {
  const fromEnv = resolveFromEnvironment(deps.env, { baseUrl: deps.globals.baseUrl });
  if (fromEnv) return client(deps, fromEnv.baseUrl, fromEnv.auth);
  const { openDepsStore } = await import('./open-store.js');
  return connect(deps, openDepsStore(deps)).client;
}
