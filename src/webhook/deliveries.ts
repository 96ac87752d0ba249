/**
 * What happens to a verified, well-formed delivery: drop it if its id was processed, wait if the
 * same id is being processed right now, else journal it, forward it (--forward-to), report it (and
 * wait until the report is written), record its id, and only then answer. The order is the crash
 * contract of dedupe.ts: nothing is remembered as seen before what it is for has happened.
 *
 * A forward that fails goes back to the service as its error (it retries), except with a journal
 * (--store): then the service is answered 200 queued and the listener retries it with backoff.
 *
 * In memory (no --store) every step that has nothing to wait for returns undefined and the next one
 * runs in the same tick: the hot path allocates no promise of its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseEnvelope, type WebhookEvent } from './envelope.js';
import { serviceHeaders, type ForwardResult } from './forward.js';
import type { InterruptedDelivery } from './seen-ids.js';
import type { ReceiverOptions, ReceiverStats } from './receiver-types.js';
import * as R from './replies.js';

export interface Deliveries {
  accept(req: IncomingMessage, res: ServerResponse, event: WebhookEvent, body: Buffer): void;
  /** Finishes deliveries a crash interrupted (from the journal); returns how many were taken up. */
  resume(interrupted: InterruptedDelivery[]): number;
}

/** The receiver's side: `begin`/`end` bracket the work close() waits for; `stopping` is true once it closes. */
export interface Lifecycle {
  begin(): void;
  end(): void;
  stopping(): boolean;
}

/** Where the outcome goes: an HTTP answer, or nowhere for a delivery resumed from the journal. */
type Answer = (reply: R.Reply) => void;
const NOBODY: Answer = () => {};

export function createDeliveries(
  options: ReceiverOptions,
  stats: ReceiverStats,
  { begin, end, stopping }: Lifecycle,
): Deliveries {
  const { dedupe, forwarder } = options;
  const verified = options.verify !== undefined;
  const wanted = options.events ? new Set(options.events) : undefined;
  const filtering = wanted !== undefined && wanted.size > 0;
  /** Ids being processed right now, with deliveries of the same id waiting for the outcome. */
  const inflight = new Map<string, Array<() => void> | null>();
  /** Ids a crash interrupted: whenever they are shown again, they are marked as redelivered. */
  const interrupted = new Set<string>();
  /** --store: ids whose forward failed, waiting for their next local attempt. */
  const queued = new Set<string>();
  const retryInitialMs = options.forwardRetry?.initialMs ?? 1000;
  const retryMaxMs = options.forwardRetry?.maxMs ?? 60_000;
  const scheduleRetry = options.scheduleRetry ?? ((run: () => void, ms: number) => setTimeout(run, ms).unref());

  function accept(req: IncomingMessage, res: ServerResponse, event: WebhookEvent, body: Buffer): void {
    // Once stopping, nothing new is recorded or printed: the service keeps it and retries.
    if (stopping()) return R.send(res, R.SHUTTING_DOWN);
    const id = event.id;
    const shown = !filtering || wanted!.has(event.type);
    if (dedupe.has(id)) {
      stats.duplicates++;
      R.send(res, R.DUPLICATE);
      if (shown) options.onDuplicate?.(event);
      return;
    }
    if (queued.has(id)) return R.send(res, R.QUEUED); // ours to retry: the service may stop
    if (inflight.has(id)) {
      // Same id still being forwarded or recorded: its outcome decides (duplicate, or our turn).
      let waiting = inflight.get(id);
      if (!waiting) inflight.set(id, (waiting = []));
      waiting.push(() => accept(req, res, event, body));
      return;
    }
    inflight.set(id, null);
    begin();
    const answer: Answer = (r) => R.send(res, r);
    if (!shown) return commit(event, false, R.ACCEPTED, answer);
    start(event, body, serviceHeaders(req.headers), answer);
  }

  function resume(list: InterruptedDelivery[]): number {
    let n = 0;
    for (const { id, body, headers, queued: waitingForRetry } of list) {
      const event = parseEnvelope(body);
      if (typeof event === 'string' || event.id !== id || inflight.has(id) || dedupe.has(id)) continue;
      if (!waitingForRetry) interrupted.add(id); // it may have been shown before the crash

      inflight.set(id, null);
      begin();
      n++;
      // Interrupted: already journaled, straight on (and marked). Waiting for a retry: journaled
      // again first, as a crash from here on may fall after it is shown.
      if (waitingForRetry) start(event, body, headers, NOBODY);
      else deliver(event, body, headers, NOBODY, 1);
    }
    return n;
  }

  /** Journals the delivery (with --store), then delivers it. */
  function start(
    event: WebhookEvent,
    body: Buffer,
    headers: Record<string, string>,
    answer: Answer,
    attempt = 1,
  ): void {
    let journaled: Promise<void> | undefined;
    try {
      journaled = dedupe.begin(event.id, body, headers);
    } catch (error) {
      return storeFailed(event, error, answer);
    }
    if (journaled === undefined) return deliver(event, body, headers, answer, attempt);
    journaled.then(
      () => deliver(event, body, headers, answer, attempt),
      (error) => storeFailed(event, error, answer),
    );
  }

  function deliver(
    event: WebhookEvent,
    body: Buffer,
    headers: Record<string, string>,
    answer: Answer,
    attempt: number,
  ): void {
    const target = forwarder?.pick ? forwarder.pick(event.type) : forwarder;
    if (!target) return show(event, undefined, R.ACCEPTED, answer);
    target.forward(body, headers).then(
      (result) => {
        if (result.ok) show(event, result, R.ACCEPTED, answer, attempt);
        // The app already had it: done, for an at-least-once consumer; the 409 stops the retries too.
        else if (result.status === 409) show(event, result, R.APP_HAD_IT, answer, attempt);
        else if (dedupe.durable) forwardQueued(event, body, headers, result, answer, attempt);
        else forwardFailed(event, result, answer);
      },
      (error) => storeFailed(event, error, answer),
    );
  }

  /** Reports the event; once the report is written (onEvent's promise), records it. */
  function show(
    event: WebhookEvent,
    forward: ForwardResult | undefined,
    reply: R.Reply,
    answer: Answer,
    attempt = 1,
  ): void {
    stats.received++;
    const redelivered = interrupted.has(event.id);
    let written: unknown;
    try {
      written = options.onEvent({
        event,
        verified,
        ...(forward && { forward }),
        ...(redelivered && { redelivered }),
        ...(attempt > 1 && { attempt }),
      });
    } catch (error) {
      // Not shown, so not recorded: the service is answered 500 and its retry shows it: a
      // delivery acknowledged but never printed would then be dropped as a duplicate.
      return notShown(event, error, answer);
    }
    // Anything but a promise (a callback's stray return value included) means written already.
    if (!(written instanceof Promise)) return commit(event, true, reply, answer, forward);
    written.then(
      () => commit(event, true, reply, answer, forward),
      (error) => {
        options.onError?.(error, event);
        commit(event, true, reply, answer, forward);
      },
    );
  }

  /**
   * Records the id as seen (with --store, with the outcome `replay --store` shows: only the journal
   * pays for it); once that is durable, answers.
   */
  function commit(event: WebhookEvent, shown: boolean, reply: R.Reply, answer: Answer, forward?: ForwardResult): void {
    if (!shown) {
      stats.received++;
      stats.filtered++;
      options.onFiltered?.(event);
    }
    const durable = dedupe.durable && shown ? dedupe.record(event.id, { verified, forward }) : dedupe.record(event.id);
    if (durable === undefined) return done(event, reply, answer);
    durable.then(
      () => done(event, reply, answer),
      (error) => {
        // Shown but not recorded: the service's retry shows it again, and says so.
        if (shown) interrupted.add(event.id);
        storeFailed(event, error, answer);
      },
    );
  }

  function done(event: WebhookEvent, reply: R.Reply, answer: Answer): void {
    interrupted.delete(event.id);
    answer(reply);
    settle(event.id);
  }

  function forwardFailed(event: WebhookEvent, result: ForwardResult, answer: Answer): void {
    stats.forwardFailed++;
    dedupe.release(event.id);
    answer(R.reply(result.status, { error: result.error ?? `forward target answered ${result.status}` }));
    options.onForwardFailed?.(event, result);
    settle(event.id);
  }

  /**
   * With a journal the listener owns a failed forward: the service is answered 200 (queued), the
   * delivery stays begun in the journal (a restart resumes it), and it is forwarded again with backoff.
   */
  function forwardQueued(
    event: WebhookEvent,
    body: Buffer,
    headers: Record<string, string>,
    result: ForwardResult,
    answer: Answer,
    attempt: number,
  ): void {
    stats.forwardFailed++;
    const wait = Math.min(retryMaxMs, retryInitialMs * 2 ** (attempt - 1));
    queued.add(event.id);
    const retry = () => {
      queued.delete(event.id);
      if (stopping() || inflight.has(event.id) || dedupe.has(event.id)) return; // left in the journal for the next start
      inflight.set(event.id, null);
      begin();
      // Journaled again first: from here on a crash may fall after the line is shown (marked then).
      start(event, body, headers, NOBODY, attempt + 1);
    };
    const told = () => {
      answer(R.QUEUED);
      options.onForwardQueued?.(event, result, attempt, wait);
      settle(event.id);
      // Counted from here, once this attempt has settled: a retry due while the journal write was
      // still under way would find the id in flight and be dropped, and the next delivery from the
      // service would then start over at attempt 1.
      scheduleRetry(retry, wait);
    };
    // The service is answered once the journal says queued (a failed write changes nothing: the
    // begun line already makes a restart retry it), so a journal read after the 200 sees it.
    const written = dedupe.queue(event.id, { verified, forward: result });
    if (written) written.then(told, told);
    else told();
  }

  function notShown(event: WebhookEvent, error: unknown, answer: Answer): void {
    stats.received--;
    dedupe.release(event.id);
    answer(R.NOT_SHOWN);
    options.onError?.(error, event);
    settle(event.id);
  }

  function storeFailed(event: WebhookEvent, error: unknown, answer: Answer): void {
    dedupe.release(event.id);
    answer(R.STORE_FAILED);
    options.onError?.(error, event);
    settle(event.id);
  }

  function settle(id: string): void {
    const waiting = inflight.get(id);
    inflight.delete(id);
    if (waiting) for (const retry of waiting) retry();
    end();
  }

  return { accept, resume };
}
