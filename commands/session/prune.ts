/**
 * `svc session prune [--dry-run]`: deletes session keys that can no longer sign anything. Expired
 * ones are judged from the store; the rest by the service's list of live sessions per account
 * (a 404 for the account means this service never knew it: an emulator restarted without --state).
 * Scope: the profile's keys, plus keys whose profile no longer exists.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { isExpired } from '../../src/auth/auth-session.js';
import { liveSessionIds } from './liveness.js';
import type { StoredSession } from '../../src/store/types.js';
import { expiresIn } from './format.js';
import { mayBeEmulator } from '../../src/webhook-replay/replay.js';
import { serviceClock } from '../../src/trigger/service-clock.js';

export type PruneOptions = OptionsOf<typeof verbs.prune>;

interface Pruned {
  id: string;
  profile: string;
  reason: string;
}

/**
 * The service's time, asked only once a session turned out not to be live: the emulator's clock may
 * run ahead of this machine's (--time-scale, a test moving it), so a session it let expire is
 * still unexpired here, and must be reported as expired, not as revoked.
 */
async function serviceNow(deps: Deps): Promise<number> {
  const [client, store] = await Promise.all([deps.client(), deps.store()]);
  const local = await mayBeEmulator(client.baseUrl, async () => store.getProfile('local')?.baseUrl);
  return (await serviceClock(client, local, deps.signal)).now();
}

export async function run(opts: PruneOptions, deps: Deps): Promise<void> {
  const [store, { name: profileName }] = await Promise.all([deps.store(), deps.profile()]);
  const profiles = store.listProfiles();
  const now = deps.clock.now();
  const candidates = store
    .listSessions()
    .filter((s) => s.profile === profileName || !Object.hasOwn(profiles, s.profile));
  const pruned: Pruned[] = [];
  const toAsk = new Map<string, StoredSession[]>();
  for (const s of candidates) {
    if (isExpired(s.expiresAt, now))
      pruned.push({ id: s.id, profile: s.profile, reason: `${expiresIn(s.expiresAt, now)}` });
    else toAsk.set(s.accountId, [...(toAsk.get(s.accountId) ?? []), s]);
  }
  let serviceTime: Promise<number> | undefined;
  for (const [accountId, sessions] of toAsk) {
    const live = await liveSessionIds(deps, accountId);
    for (const s of sessions) {
      if (live === undefined)
        pruned.push({ id: s.id, profile: s.profile, reason: `the service does not know ${accountId}` });
      else if (!live.has(s.id)) {
        serviceTime ??= serviceNow(deps);
        const then = await serviceTime;
        pruned.push({
          id: s.id,
          profile: s.profile,
          reason: isExpired(s.expiresAt, then)
            ? `${expiresIn(s.expiresAt, then)} on the service's clock`
            : 'no longer live on the service (revoked or refreshed elsewhere)',
        });
      }
    }
  }
  if (!opts.dryRun) for (const p of pruned) store.deleteSession(p.id);

  const { ui } = deps;
  const kept = candidates.length - pruned.length;
  ui.result({ pruned, kept, dryRun: opts.dryRun }, () => {
    for (const p of pruned) ui.out(`${opts.dryRun ? 'would delete' : 'deleted'}  ${p.id}  ${p.reason}`);
    if (pruned.length === 0) ui.info(`Nothing to prune: ${kept} session key${kept === 1 ? '' : 's'} can still sign.`);
    else if (opts.dryRun) ui.hint('Run again without --dry-run to delete them.');
    else ui.success(`Deleted ${pruned.length} session key${pruned.length === 1 ? '' : 's'}; ${kept} kept.`);
  });
}
