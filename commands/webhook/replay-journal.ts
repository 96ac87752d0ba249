/**
 * `svc webhook replay --store <file> [--failed] [--last N] [--to <url>]`: re-forwards deliveries from
 * a `webhook listen --store` journal (src/webhook/journal/replay.ts), byte for byte with the service's
 * headers, to --to or to the URL each was forwarded to. One line per delivery on stdout (the new
 * answer, then what the journal says: verification and the earlier answer); the summary on stderr.
 */
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { SvcError, UsageError } from '../../src/errors.js';
import { createForwarder, type ForwardResult } from '../../src/webhook/forward.js';
import { reforward, selectFromJournal, type ReforwardResult } from '../../src/webhook/journal/replay.js';
import { formatMs } from './format.js';
import type { ReplayOptions } from './replay.js';
import { count } from '../../src/words.js';

export async function replayJournal(opts: ReplayOptions, deps: Deps): Promise<void> {
  const store = checkFlags(opts);
  const to = opts.to !== undefined ? createForwarder(opts.to, { input: 'to' }) : undefined;
  const { ui } = deps;
  let results: ReforwardResult[];
  try {
    const selected = selectFromJournal({ store, failed: opts.failed, last: opts.last, to });
    results = await reforward(selected, to, (r) => {
      if (!deps.globals.json) ui.out(line(ui, r));
    });
  } finally {
    await to?.close();
  }
  if (deps.globals.json) ui.json({ store, data: results.map(record) });
  if (results.length === 0) return ui.info(`No journaled delivery matches in ${store}; nothing was sent.`);
  const failed = results.filter((r) => r.outcome === 'failed');
  const duplicates = results.filter((r) => r.outcome === 'duplicate').length;
  ui.info(
    `Re-forwarded ${count(results.length, 'delivery', 'deliveries')} from ${store}: ${results.length - failed.length - duplicates} accepted${duplicates ? `, ${duplicates} already processed by the app (409)` : ''}.`,
  );
  if (failed.length > 0) {
    throw new SvcError(
      `${failed.length} of ${count(results.length, 're-forward')} failed (${failed.map((r) => `${r.entry.id}: ${r.forward.status}`).join(', ')})`,
      { hint: 'Check that your app is up; the journal is unchanged, so you can replay them again.' },
    );
  }
}

/**
 * The journal file, once the flags make one journal selection. Journal mode and emulator mode select
 * differently: mixing them is refused before anything is read.
 */
function checkFlags(opts: ReplayOptions): string {
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
      { input: [...journal, ...emulator].join(', ') },
    );
  }
  if (opts.store === undefined) {
    throw new UsageError(
      `${journal.join(', ')} need --store <file>: the journal of \`svc webhook listen --store <file>\``,
      {
        input: '--store',
      },
    );
  }
  if (!opts.failed && opts.last === undefined) {
    throw new UsageError('--store needs --failed or --last <n> to say which deliveries to re-forward', {
      input: '--failed, --last',
    });
  }
  return opts.store;
}

function answerText(a: ForwardResult): string {
  return `${a.status}${a.error ? ` (${a.error})` : ''} in ${formatMs(a.ms)}`;
}

function line(ui: UI, { entry, forward, outcome: what }: ReforwardResult): string {
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

function record({ entry, forward, outcome }: ReforwardResult) {
  return {
    id: entry.id,
    type: entry.type,
    state: entry.state,
    outcome,
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
