/**
 * `svc webhook replay [<Webhook:id>…] [--since <time>] [--type <TYPE,…>] [--to <url>]`: re-delivers
 * events from the emulator's event log (src/webhook-replay/). Results on stdout, one line per event;
 * the summary on stderr. Exit 1 when any event's first attempt failed. With --store (--failed, --last)
 * it re-forwards from a listener's journal instead (replay-journal.ts).
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { SvcError, UsageError } from '../../src/errors.js';
import { replayRequest } from './replay-request.js';
import { mayBeEmulator, replayEvents, type ReplayOutcome } from '../../src/webhook-replay/replay.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';
import { replayJournal } from './replay-journal.js';
import { count } from '../../src/words.js';

export type ReplayOptions = OptionsOf<typeof verbs.replay>;

export async function run(opts: ReplayOptions, deps: Deps): Promise<void> {
  if (opts.store !== undefined || opts.failed || opts.last !== undefined) return replayJournal(opts, deps);
  const body = replayRequest({ ids: opts.ids ?? [], since: opts.since, type: opts.type, to: opts.to });
  const client = await deps.client();
  if (!(await mayBeEmulator(client.baseUrl, () => localProfileBaseUrl(deps)))) throw emulatorOnly(client.baseUrl);

  const { ui } = deps;
  const result = await replayEvents(client, body, deps.signal);
  if (deps.globals.json) ui.json(result);
  else for (const event of result.data) ui.out(line(ui, event));

  const failed = result.data.filter((e) => e.outcome === 'retrying');
  const queued = result.data.filter((e) => e.outcome === 'queued');
  if (result.data.length === 0) return ui.info('No logged event matches; nothing was sent.');
  ui.info(`Replayed ${count(result.data.length, 'event')} to ${result.endpoint}: ${summary(result.data)}.`);
  if (failed.length > 0) {
    const rest = queued.length > 0 ? `, and ${queued.length} more were queued behind it` : '';
    throw new SvcError(
      `${failed.length} of ${count(result.data.length, 'event')} failed to deliver (${failed.map((e) => e.id).join(', ')})${rest}`,
      {
        hint: 'The emulator keeps retrying them with backoff; check that the endpoint is up.',
      },
    );
  }
}

/** The refusal for a base URL that cannot be the emulator (exit 2, nothing sent). */
export function emulatorOnly(baseUrl: string): UsageError {
  return new UsageError(
    `${new URL(baseUrl).origin} is not the emulator: svc webhook replay works only against the svc emulator (the service's API has no endpoint to list or resend webhook events)`,
    {
      input: 'baseUrl',
      reason: 'NOT_EMULATOR',
      hint: 'Start one with `svc emulator start` (it writes the `local` profile), or pass --base-url http://127.0.0.1:<port>.',
    },
  );
}

async function localProfileBaseUrl(deps: Deps): Promise<string | undefined> {
  try {
    return (await deps.store()).getProfile(LOCAL_PROFILE)?.baseUrl;
  } catch {
    return undefined; // no readable store: then it is not the local emulator's address either
  }
}

function line(ui: UI, e: ReplayOutcome): string {
  const answer = e.responseStatus !== undefined ? String(e.responseStatus) : (e.error ?? '');
  const paint = e.outcome === 'retrying' ? ui.c.red : e.outcome === 'delivered' ? ui.c.green : ui.c.yellow;
  return [paint(e.outcome.padEnd(9)), ui.c.bold(e.type), e.id, ui.c.dim(e.timestamp), answer].join('  ');
}

function summary(data: readonly ReplayOutcome[]): string {
  const count = (outcome: ReplayOutcome['outcome']) => data.filter((e) => e.outcome === outcome).length;
  const parts = [`${count('delivered')} delivered`];
  if (count('duplicate') > 0) parts.push(`${count('duplicate')} already processed (409)`);
  if (count('retrying') > 0) parts.push(`${count('retrying')} failed, retrying`);
  if (count('queued') > 0) parts.push(`${count('queued')} queued, delivering in the background`);
  return parts.join(', ');
}
