/**
 * The one place a command gets its store and API client: flags, then environment, then the
 * profile (src/store resolveConnection). `--verbose` logs method, path, status and timing to
 * stderr; the client never hands headers or bodies to the log, so secrets cannot leak there.
 */
import type { Deps } from './deps.js';
import { createClient, type ApiClient, type HttpLogEntry } from '../src/http/index.js';
import { resolveConnection, type Profile, type Store } from '../src/store/index.js';
import { openDepsStore } from './open-store.js';

export interface Connection {
  store: Store;
  client: ApiClient;
  profileName: string;
  profile: Profile;
  baseUrl: string;
}

export function connect(deps: Deps, store: Store = openDepsStore(deps)): Connection {
  const { profileName, profile, baseUrl, auth } = resolveConnection(store, deps.env, {
    profile: deps.globals.profile,
    baseUrl: deps.globals.baseUrl,
  });
  const log = deps.globals.verbose
    ? (e: HttpLogEntry) => deps.io.stderr.write(`→ ${e.method} ${e.path} ${e.status ?? e.error ?? ''} (${Math.round(e.ms)} ms)\n`)
    : undefined;
  const client = createClient({ baseUrl, auth, log, env: deps.env });
  return { store, client, profileName, profile, baseUrl };
}
