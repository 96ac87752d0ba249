/**
 * Whether the service still knows the sessions held here, asked per account with the API token:
 * `svc session prune` deletes the dead ones, `session use` refuses one. An account the service does
 * not know (an emulator restarted without --state) is answered 404 or a 400 naming `accountId`;
 * the description's list answers such an account with no sessions, which means the same here.
 */
import type { Deps } from '../deps.js';
import { ApiError } from '../../src/errors.js';
import { listSessions } from '../../src/auth/list-revoke.js';
import { apiTokenCall } from '../auth-hints.js';

/** An account this service does not know. */
function unknownAccount(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 404) return true;
  return error.status === 400 && error.fieldErrors.some((f) => f.field === 'accountId');
}

/** The ids of the account's live sessions, or undefined when the service does not know the account. */
export async function liveSessionIds(deps: Deps, accountId: string): Promise<Set<string> | undefined> {
  try {
    const sessions = await apiTokenCall(listSessions(await deps.client(), accountId, deps.signal));
    return new Set(sessions.map((s) => s.id));
  } catch (error) {
    if (unknownAccount(error)) return undefined;
    throw error;
  }
}

/** How long TAB may wait for the service before completion falls back to what the store says. */
const COMPLETION_WAIT_MS = 1_500;

/**
 * The session ids worth offering to `session use`, `revoke` and `refresh`: the unexpired keys, less
 * the profile's own that its service says are gone (another profile's keys belong to another
 * service, not asked here). Without an answer in time, the unexpired ones.
 */
export async function liveStoredSessionIds(deps: Deps): Promise<string[]> {
  const [store, { name }] = await Promise.all([deps.store(), deps.profile()]);
  const now = deps.clock.now();
  const held = store.listSessions().filter((s) => Date.parse(s.expiresAt) > now);
  const asking = { ...deps, signal: AbortSignal.any([deps.signal, AbortSignal.timeout(COMPLETION_WAIT_MS)]) };
  const live = new Map<string, Set<string> | undefined>();
  try {
    for (const accountId of new Set(held.filter((s) => s.profile === name).map((s) => s.accountId)))
      live.set(accountId, await liveSessionIds(asking, accountId));
  } catch {
    return held.map((s) => s.id);
  }
  return held.filter((s) => s.profile !== name || live.get(s.accountId)?.has(s.id)).map((s) => s.id);
}
