/**
 * `svc webhook replay --store <file> [--failed] [--last N] [--to <url>]`: re-forwards deliveries from
 * a `webhook listen --store` journal (src/webhook/journal-read.ts), byte for byte with the service's
 * headers, to --to or to the URL each was forwarded to. One line per delivery on stdout (the new
 * answer, then what the journal says: verification and the earlier answer); the summary on stderr.
 */
import type { Deps } from '../deps.js';
import { createUI, type UI } from '../ui.js';
import { SvcError, UsageError } from '../../src/errors.js';
import { readJournal, type JournalEntry } from '../../src/webhook/journal-read.js';
import { createForwarder, type ForwardResult, type Forwarder } from '../../src/webhook/forward.js';
import { formatMs } from './format.js';
import type { ReplayOptions } from './replay.js';

export async function replayJournal(opts: ReplayOptions, deps: Deps): Promise<void> {
  const { store, last } = checkFlags(opts);
  const to = opts.to !== undefined ? toForwarder(opts.to) : undefined;
  let entries: JournalEntry[];
  try {
    entries = readJournal(store);
  } catch (error) {
    await to?.close();
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read --store ${store} (${code})`, {
      field: '--store',
      hint: 'Pass the file a `svc webhook listen --store <file>` writes.',
    });
  }
  let selected = opts.failed ? entries.filter((e) => e.state === 'failed') : entries;
  if (last !== undefined) selected = selected.slice(-last);
  const homeless = selected.filter((e) => !to && e.answer?.url === undefined);
  if (homeless.length > 0) {
    await to?.close();
    throw new UsageError(
      `${homeless.length} selected deliveries were never forwarded, so there is no URL to send them to again (${homeless.map((e) => e.id).join(', ')})`,
      { field: '--to', hint: 'Pass --to <url> (your app, e.g. localhost:3000/webhooks).' },
    );
  }

  const ui = createUI(deps);
  const pools = new Map<string, Forwarder>();
  const results: Array<{ entry: JournalEntry; forward: ForwardResult }> = [];
  try {
    // One at a time, oldest first: the app sees them in the order the listener did.
    for (const entry of selected) {
      const target = to ?? pool(pools, entry.answer!.url!);
      const forward = await target.forward(entry.body, entry.headers);
      results.push({ entry, forward });
      if (!deps.globals.json) ui.out(line(ui, entry, forward));
    }
  } finally {
    await to?.close();
    await Promise.all([...pools.values()].map((f) => f.close()));
  }
  if (deps.globals.json) ui.json({ store, data: results.map(({ entry, forward }) => record(entry, forward)) });
  if (results.length === 0) return ui.info(`No journaled delivery matches in ${store}; nothing was sent.`);
  const failed = results.filter((r) => outcome(r.forward) === 'failed');
  const duplicates = results.filter((r) => outcome(r.forward) === 'duplicate').length;
  ui.info(
    `Re-forwarded ${results.length} delivery(ies) from ${store}: ${results.length - failed.length - duplicates} accepted${duplicates ? `, ${duplicates} already processed by the app (409)` : ''}.`,
  );
  if (failed.length > 0) {
    throw new SvcError(
      `${failed.length} of ${results.length} re-forward(s) failed (${failed.map((r) => `${r.entry.id}: ${r.forward.status}`).join(', ')})`,
      { hint: 'Check that your app is up; the journal is unchanged, so you can replay them again.' },
    );
  }
}

/** Journal mode and emulator mode select differently: mixing them is refused before anything is read. */
function checkFlags(opts: ReplayOptions): { store: string; last: number | undefined } {
  const emulator = [
    ...((opts.ids ?? []).length > 0 ? ['<Webhook:id>'] : []),
    ...(opts.since !== undefined ? ['--since'] : []),
    ...(opts.type !== undefined ? ['--type'] : []),
  ];
  const journal = [
    ...(opts.store !== undefined ? ['--store'] : []),
    ...(opts.failed ? ['--failed'] : []),
    ...(opts.last !== undefined ? ['--last'] : []),
  ];
  if (emulator.length > 0) {
    throw new UsageError(
      `${journal.join(', ')} replay from a listener's journal; ${emulator.join(', ')} select from the emulator's log: use one or the other`,
      { field: [...journal, ...emulator].join(', ') },
    );
  }
  if (opts.store === undefined) {
    throw new UsageError(`${journal.join(', ')} need --store <file>: the journal of \`svc webhook listen --store\``, {
      field: '--store',
    });
  }
  if (!opts.failed && opts.last === undefined) {
    throw new UsageError('--store needs --failed or --last <n> to say which deliveries to re-forward', {
      field: '--failed, --last',
    });
  }
  let last: number | undefined;
  if (opts.last !== undefined) {
    last = /^\d+$/.test(opts.last.trim()) ? Number(opts.last) : NaN;
    if (!Number.isSafeInteger(last) || last < 1)
      throw new UsageError(`--last must be a whole number of deliveries, 1 or more, got "${opts.last}"`, {
        field: '--last',
      });
  }
  return { store: opts.store, last };
}

function toForwarder(url: string): Forwarder {
  try {
    return createForwarder(url);
  } catch {
    throw new UsageError(`--to must be an http(s) URL or host:port, got "${url}"`, { field: '--to' });
  }
}

function pool(pools: Map<string, Forwarder>, url: string): Forwarder {
  let forwarder = pools.get(url);
  if (!forwarder) pools.set(url, (forwarder = createForwarder(url)));
  return forwarder;
}

function answerText(a: ForwardResult): string {
  return `${a.status}${a.error ? ` (${a.error})` : ''} in ${formatMs(a.ms)}`;
}

/** 409 is the app saying it already had the event: done, as the listener counts it, not a failure. */
function outcome(forward: ForwardResult): 'forwarded' | 'duplicate' | 'failed' {
  return forward.ok ? 'forwarded' : forward.status === 409 ? 'duplicate' : 'failed';
}

function line(ui: UI, entry: JournalEntry, forward: ForwardResult): string {
  const what = outcome(forward);
  const paint = what === 'forwarded' ? ui.c.green : what === 'duplicate' ? ui.c.yellow : ui.c.red;
  const was = [
    entry.verified === undefined ? 'verification not journaled' : entry.verified ? 'verified' : 'UNVERIFIED',
    entry.answer
      ? `was ${entry.state === 'failed' ? 'failing' : 'answered'} ${answerText(entry.answer)}`
      : 'not forwarded before',
  ].join(', ');
  return [
    paint(what.padEnd(9)),
    ui.c.bold(entry.type),
    entry.id,
    `→ ${forward.url}: ${answerText(forward)}`,
    ui.c.dim(`(${was})`),
  ].join('  ');
}

function record(entry: JournalEntry, forward: ForwardResult) {
  return {
    id: entry.id,
    type: entry.type,
    state: entry.state,
    outcome: outcome(forward),
    verified: entry.verified ?? null,
    previous: entry.answer ?? null,
    forward: {
      url: forward.url,
      ok: forward.ok,
      status: forward.status,
      ms: forward.ms,
      ...(forward.error && { error: forward.error }),
    },
  };
}
