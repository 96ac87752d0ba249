/**
 * One delivery's way through the listener, as a small object whose methods are the steps between
 * these states:
 *
 *   received ──▶ verified ──▶ forwarding ──▶ shown ──▶ recorded
 *   (body read)  (signature   (journaled,    (line    (id durable as seen;
 *                 checked,     at the app)    written)  the service answered)
 *                 id claimed)       │
 *                                   └──▶ queued (the app failed, journal: answered 200 queued,
 *                                                retried here with backoff from the journal)
 *
 * A filtered type goes from verified straight to recorded; a duplicate, a refusal, or a failure on
 * the way (the app's error without a journal, a journal or output error) ends it with its answer and
 * releases the id, so the service's retry starts over. The order is the crash contract of
 * dedupe.ts: nothing is remembered as seen before what it is for has happened.
 *
 * In memory (no journal) every step that has nothing to wait for runs in the same tick: the hot
 * path allocates this object and no promise of its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseEnvelope, type WebhookEvent } from './envelope.js';
import { serviceHeaders, type ForwardResult } from './forward.js';
import type { InterruptedDelivery } from './seen-ids.js';
import type { ReceiverOptions, ReceiverStats } from './receiver-types.js';
import * as R from './replies.js';

export interface Deliveries {
  /** A request's body was read: verify it and take it through. */
  receive(req: IncomingMessage, res: ServerResponse, body: Buffer): void;
  /** Finishes deliveries a crash interrupted (from the journal); returns how many were taken up. */
  resume(interrupted: InterruptedDelivery[]): number;
}

/** The receiver's side: `begin`/`end` bracket the work close() waits for; `stopping` is true once it closes. */
export interface Lifecycle {
  begin(): void;
  end(): void;
  stopping(): boolean;
  /** Answers a request that is not a delivery to take (bad signature or body), and reports it. */
  refuse(req: IncomingMessage, res: ServerResponse, reply: R.Reply, reason: string): void;
}

export const SIGNATURE_HEADER = 'x-service-signature';
const BAD_SIGNATURE_REASON = 'X-Service-Signature does not verify over the body';

/** What every delivery shares: the options, the counters, and the ids in flight, interrupted or queued. */
class Pipeline {
  readonly verified: boolean;
  readonly wanted: Set<string> | undefined;
  /** Ids being processed right now, with deliveries of the same id waiting for the outcome. */
  readonly inflight = new Map<string, Array<() => void> | null>();
  /** Ids a crash interrupted: whenever they are shown again, they are marked as redelivered. */
  readonly interrupted = new Set<string>();
  /** Journal only: ids whose forward failed, waiting for their next local attempt. */
  readonly queued = new Set<string>();
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
  readonly scheduleRetry: (run: () => void, ms: number) => void;

  constructor(
    readonly options: ReceiverOptions,
    readonly stats: ReceiverStats,
    readonly life: Lifecycle,
  ) {
    this.verified = options.verify !== undefined;
    const wanted = options.events ? new Set(options.events) : undefined;
    this.wanted = wanted && wanted.size > 0 ? wanted : undefined;
    this.retryInitialMs = options.forwardRetry?.initialMs ?? 1000;
    this.retryMaxMs = options.forwardRetry?.maxMs ?? 60_000;
    this.scheduleRetry = options.scheduleRetry ?? ((run, ms) => setTimeout(run, ms).unref());
  }

  /** Ends the delivery's hold on its id; deliveries of the same id that waited go on. */
  settle(id: string): void {
    const waiting = this.inflight.get(id);
    this.inflight.delete(id);
    if (waiting) for (const retry of waiting) retry();
    this.life.end();
  }
}

class Delivery {
  event!: WebhookEvent;
  headers!: Record<string, string>;
  /** Shown (its type wanted), or only recorded. */
  shown = true;

  /** Where the outcome goes: the service's request, or nowhere (resumed from the journal, or a local retry). */
  private res: ServerResponse | undefined;
  private attempt = 1;

  constructor(
    private readonly p: Pipeline,
    private readonly body: Buffer,
  ) {}

  private answer(reply: R.Reply): void {
    if (this.res) R.send(this.res, reply);
  }

  /** received → verified, or refused (401, 400). */
  verify(req: IncomingMessage, res: ServerResponse): void {
    const { verify } = this.p.options;
    if (verify === undefined) return this.claim(req, res);
    const header = req.headers[SIGNATURE_HEADER];
    if (typeof header !== 'string' || header === '')
      return this.p.life.refuse(req, res, R.MISSING_SIGNATURE, 'missing X-Service-Signature header');
    let valid: boolean | Promise<boolean>;
    try {
      valid = verify(this.body, header);
    } catch {
      valid = false;
    }
    if (valid === true) return this.claim(req, res);
    if (valid === false) return this.p.life.refuse(req, res, R.BAD_SIGNATURE, BAD_SIGNATURE_REASON);
    const { life } = this.p;
    life.begin();
    valid.then(
      (ok) => {
        if (ok) this.claim(req, res);
        else life.refuse(req, res, R.BAD_SIGNATURE, BAD_SIGNATURE_REASON);
        life.end();
      },
      () => {
        life.refuse(req, res, R.BAD_SIGNATURE, BAD_SIGNATURE_REASON);
        life.end();
      },
    );
  }

  /** Parses the envelope and claims its id: verified, or answered as a duplicate (or queued, or waiting). */
  private claim(req: IncomingMessage, res: ServerResponse): void {
    const event = parseEnvelope(this.body);
    if (typeof event === 'string') return this.p.life.refuse(req, res, R.reply(400, { error: event }), event);
    this.event = event;
    this.take(req, res);
  }

  private take(req: IncomingMessage, res: ServerResponse): void {
    const { p, event } = this;
    // Once stopping, nothing new is recorded or printed: the service keeps it and retries.
    if (p.life.stopping()) return R.send(res, R.SHUTTING_DOWN);
    const id = event.id;
    this.shown = p.wanted === undefined || p.wanted.has(event.type);
    if (p.options.dedupe.has(id)) {
      p.stats.duplicates++;
      R.send(res, R.DUPLICATE);
      if (this.shown) p.options.onDuplicate?.(event);
      return;
    }
    if (p.queued.has(id)) return R.send(res, R.QUEUED); // ours to retry: the service may stop
    if (p.inflight.has(id)) {
      // Same id still being forwarded or recorded: its outcome decides (duplicate, or our turn).
      let waiting = p.inflight.get(id);
      if (!waiting) p.inflight.set(id, (waiting = []));
      waiting.push(() => this.take(req, res));
      return;
    }
    this.hold();
    this.res = res;
    if (!this.shown) return this.record(R.ACCEPTED);
    this.headers = serviceHeaders(req.headers);
    this.journal();
  }

  /** From the journal after a crash: `queued` ones are journaled again, interrupted ones go straight on (marked). */
  resume(event: WebhookEvent, headers: Record<string, string>, queued: boolean): void {
    this.event = event;
    this.headers = headers;
    this.hold();
    if (queued) return this.journal();
    this.p.interrupted.add(event.id); // it may have been shown before the crash
    this.forward();
  }

  private hold(): void {
    this.p.inflight.set(this.event.id, null);
    this.p.life.begin();
  }

  /** Journals the body (if there is a journal), then forwards it. */
  private journal(): void {
    let journaled: Promise<void> | undefined;
    try {
      journaled = this.p.options.dedupe.begin(this.event.id, this.body, this.headers);
    } catch (error) {
      return this.fail(R.STORE_FAILED, error);
    }
    if (journaled === undefined) return this.forward();
    journaled.then(
      () => this.forward(),
      (error) => this.fail(R.STORE_FAILED, error),
    );
  }

  /** verified → forwarding: the app's answer decides, or straight to shown without one. */
  private forward(): void {
    const { forwarder } = this.p.options;
    const target = forwarder?.pick ? forwarder.pick(this.event.type) : forwarder;
    if (!target) return this.show(undefined, R.ACCEPTED);
    target.forward(this.body, this.headers).then(
      (result) => {
        if (result.ok) this.show(result, R.ACCEPTED);
        // The app already had it: done, for an at-least-once consumer; the 409 stops the retries too.
        else if (result.status === 409) this.show(result, R.APP_HAD_IT);
        else if (this.p.options.dedupe.durable) this.queue(result);
        else this.forwardFailed(result);
      },
      (error) => this.fail(R.STORE_FAILED, error),
    );
  }

  /** → shown: reports the event; once its line is written (onEvent's promise), records it. */
  private show(forward: ForwardResult | undefined, reply: R.Reply): void {
    const { p, event } = this;
    p.stats.received++;
    const redelivered = p.interrupted.has(event.id);
    let written: unknown;
    try {
      written = p.options.onEvent({
        event,
        verified: p.verified,
        ...(forward && { forward }),
        ...(redelivered && { redelivered }),
        ...(this.attempt > 1 && { attempt: this.attempt }),
      });
    } catch (error) {
      // Not shown, so not recorded: the service is answered 500 and its retry shows it. A delivery
      // acknowledged but never printed would then be dropped as a duplicate.
      p.stats.received--;
      return this.fail(R.NOT_SHOWN, error);
    }
    // Anything but a promise (a callback's stray return value included) means written already.
    if (!(written instanceof Promise)) return this.record(reply, forward);
    written.then(
      () => this.record(reply, forward),
      (error) => {
        p.options.onError?.(error, event);
        this.record(reply, forward);
      },
    );
  }

  /**
   * → recorded: the id is durable as seen (in the journal, with the outcome a replay from it shows:
   * only the journal pays for it); then the service is answered.
   */
  private record(reply: R.Reply, forward?: ForwardResult): void {
    const { p, event, shown } = this;
    if (!shown) {
      p.stats.received++;
      p.stats.filtered++;
      p.options.onFiltered?.(event);
    }
    const { dedupe } = p.options;
    const durable =
      dedupe.durable && shown ? dedupe.record(event.id, { verified: p.verified, forward }) : dedupe.record(event.id);
    if (durable === undefined) return this.done(reply);
    durable.then(
      () => this.done(reply),
      (error) => {
        // Shown but not recorded: the service's retry shows it again, and says so.
        if (shown) p.interrupted.add(event.id);
        this.fail(R.STORE_FAILED, error);
      },
    );
  }

  private done(reply: R.Reply): void {
    this.p.interrupted.delete(this.event.id);
    this.answer(reply);
    this.p.settle(this.event.id);
  }

  /** Without a journal the app's error goes back to the service, which retries. */
  private forwardFailed(result: ForwardResult): void {
    const { p, event } = this;
    p.stats.forwardFailed++;
    p.options.dedupe.release(event.id);
    this.answer(R.reply(result.status, { error: result.error ?? `forward target answered ${result.status}` }));
    p.options.onForwardFailed?.(event, result);
    p.settle(event.id);
  }

  /**
   * → queued: with a journal the listener owns a failed forward. The service is answered 200
   * (queued), the delivery stays begun in the journal (a restart resumes it), and it is forwarded
   * again with backoff.
   */
  private queue(result: ForwardResult): void {
    const { p, event } = this;
    p.stats.forwardFailed++;
    const wait = Math.min(p.retryMaxMs, p.retryInitialMs * 2 ** (this.attempt - 1));
    p.queued.add(event.id);
    const retry = () => {
      p.queued.delete(event.id);
      if (p.life.stopping() || p.inflight.has(event.id) || p.options.dedupe.has(event.id)) return; // left in the journal for the next start
      this.res = undefined;
      this.attempt++;
      this.hold();
      // Journaled again first: from here on a crash may fall after the line is shown (marked then).
      this.journal();
    };
    const told = () => {
      this.answer(R.QUEUED);
      p.options.onForwardQueued?.(event, result, this.attempt, wait);
      p.settle(event.id);
      // Counted from here, once this attempt has settled: a retry due while the journal write was
      // still under way would find the id in flight and be dropped, and the next delivery from the
      // service would then start over at attempt 1.
      p.scheduleRetry(retry, wait);
    };
    // The service is answered once the journal says queued (a failed write changes nothing: the
    // begun line already makes a restart retry it), so a journal read after the 200 sees it.
    const written = p.options.dedupe.queue(event.id, { verified: p.verified, forward: result });
    if (written) written.then(told, told);
    else told();
  }

  /** Ends with an error answer (the service retries): the id is released, not recorded. */
  private fail(reply: R.Reply, error: unknown): void {
    const { p, event } = this;
    p.options.dedupe.release(event.id);
    this.answer(reply);
    p.options.onError?.(error, event);
    p.settle(event.id);
  }
}

export function createDeliveries(options: ReceiverOptions, stats: ReceiverStats, life: Lifecycle): Deliveries {
  const p = new Pipeline(options, stats, life);
  return {
    receive: (req, res, body) => new Delivery(p, body).verify(req, res),
    resume(list) {
      let n = 0;
      for (const { id, body, headers, queued } of list) {
        const event = parseEnvelope(body);
        if (typeof event === 'string' || event.id !== id || p.inflight.has(id) || options.dedupe.has(id)) continue;
        n++;
        new Delivery(p, body).resume(event, headers, queued);
      }
      return n;
    },
  };
}
