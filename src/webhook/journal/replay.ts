/**
 * Re-forwarding from a listener's journal: which deliveries
 * to send again, and sending them, byte for byte with the service's headers, oldest first (the
 * order the listener saw them), to one given target or each back to the URL it was forwarded to.
 * The journal itself is not changed.
 */
import { UsageError } from '../../errors.js';
import { createForwarder, type ForwardResult, type Forwarder } from '../forward.js';
import { readJournal, type JournalEntry } from './read.js';

export interface JournalSelection {
  store: string;
  /** Only those whose forward failed. */
  failed: boolean;
  /** The newest N of those selected. */
  last?: number;
  /** Every delivery goes here instead of where it was forwarded. */
  to?: Forwarder;
}

/** 409 is the app saying it already had the event: done, as the listener counts it, not a failure. */
export type ReforwardOutcome = 'forwarded' | 'duplicate' | 'failed';

export interface ReforwardResult {
  entry: JournalEntry;
  forward: ForwardResult;
  outcome: ReforwardOutcome;
}

export function reforwardOutcome(forward: ForwardResult): ReforwardOutcome {
  return forward.ok ? 'forwarded' : forward.status === 409 ? 'duplicate' : 'failed';
}

/**
 * The selected deliveries, refused (before anything is sent) when one has nowhere to go. Errors
 * name their input by its key here: `store`, or `to` for deliveries with nowhere to go.
 */
export function selectFromJournal(opts: JournalSelection): JournalEntry[] {
  let entries: JournalEntry[];
  try {
    entries = readJournal(opts.store);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    const why = code === 'NOT_A_JOURNAL' ? "its first line is not svc's journal marker" : code;
    throw new UsageError(`cannot read the journal ${opts.store} (${why})`, {
      input: 'store',
      reason: 'UNREADABLE_JOURNAL',
      hint: 'Give the journal file a listener was started with.',
    });
  }
  let selected = opts.failed ? entries.filter((e) => e.state === 'failed') : entries;
  if (opts.last !== undefined) selected = selected.slice(-opts.last);
  const homeless = selected.filter((e) => !opts.to && e.answer?.url === undefined);
  if (homeless.length > 0) {
    throw new UsageError(
      `${homeless.length} selected deliveries were never forwarded, so there is no URL to send them to again (${homeless.map((e) => e.id).join(', ')})`,
      {
        input: 'to',
        reason: 'NO_TARGET',
        hint: 'Give a URL to send them to (your app, e.g. localhost:3000/webhooks).',
      },
    );
  }
  return selected;
}

/** Sends each entry again, one at a time, reporting each answer as it comes; closes what it opened. */
export async function reforward(
  entries: JournalEntry[],
  to: Forwarder | undefined,
  onResult: (result: ReforwardResult) => void,
): Promise<ReforwardResult[]> {
  const pools = new Map<string, Forwarder>();
  const results: ReforwardResult[] = [];
  try {
    for (const entry of entries) {
      const target = to ?? pooled(pools, entry.answer!.url!);
      const forward = await target.forward(entry.body, entry.headers);
      const result = { entry, forward, outcome: reforwardOutcome(forward) };
      results.push(result);
      onResult(result);
    }
  } finally {
    await Promise.all([...pools.values()].map((f) => f.close()));
  }
  return results;
}

function pooled(pools: Map<string, Forwarder>, url: string): Forwarder {
  let forwarder = pools.get(url);
  if (!forwarder) pools.set(url, (forwarder = createForwarder(url)));
  return forwarder;
}
