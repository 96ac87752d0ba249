/**
 * What every delivery shares (delivery.ts): the options, the counters, the ids in flight, and the
 * failed-forward queue (with a journal). `createDeliveries` is the receiver's way in.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseEnvelope } from './envelope.js';
import { ForwardQueue } from './forward-queue.js';
import { receive, takeThrough } from './delivery.js';
import type { InterruptedDelivery } from './seen-ids.js';
import type { ReceiverOptions, ReceiverStats } from './receiver-types.js';
import type * as R from './replies.js';

export { SIGNATURE_HEADER } from './delivery.js';

export interface Deliveries {
  /** A request's body was read: verify it and take it through. */
  receive(req: IncomingMessage, res: ServerResponse, body: Buffer): void;
  /** Finishes deliveries a crash interrupted and queues the failed forwards (from the journal); returns how many were interrupted. */
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

export class Pipeline {
  readonly verified: boolean;
  /** A delivery's service headers are kept: forwarded with it, or journaled. */
  readonly keepsHeaders: boolean;
  readonly wanted: Set<string> | undefined;
  /** Ids being processed right now, with deliveries of the same id waiting for the outcome. */
  readonly inflight = new Map<string, Array<() => void> | null>();
  /** Ids a crash interrupted: whenever they are shown again, they are marked as redelivered. */
  readonly interrupted = new Set<string>();
  /** Journal only: failed forwards waiting for their next local attempt. */
  readonly queue: ForwardQueue | undefined;

  constructor(
    readonly options: ReceiverOptions,
    readonly stats: ReceiverStats,
    readonly life: Lifecycle,
  ) {
    this.verified = options.verify !== undefined;
    this.keepsHeaders = options.dedupe.durable || options.forwarder !== undefined;
    const wanted = options.events ? new Set(options.events) : undefined;
    this.wanted = wanted && wanted.size > 0 ? wanted : undefined;
    if (options.dedupe.durable) {
      this.queue = new ForwardQueue({
        ...options.forwardRetry,
        schedule: options.scheduleRetry,
        stopping: () => life.stopping(),
        retry: (id, attempt) => this.retry(id, attempt),
      });
    }
  }

  /** Resolves when the delivery holding `id` settles. */
  turn(id: string): Promise<void> {
    let waiting = this.inflight.get(id);
    if (!waiting) this.inflight.set(id, (waiting = []));
    return new Promise((resolve) => waiting.push(resolve));
  }

  /** Ends the delivery's hold on its id; deliveries of the same id that waited go on. */
  settle(id: string): void {
    const waiting = this.inflight.get(id);
    this.inflight.delete(id);
    if (waiting) for (const go of waiting) go();
  }

  /** The queue's turn for a failed forward: read back from the journal and taken through again. */
  async retry(id: string, attempt: number): Promise<boolean> {
    const { dedupe } = this.options;
    // Left in the journal for the next start, or taken by the service's own redelivery meanwhile.
    if (this.life.stopping() || this.inflight.has(id) || dedupe.has(id)) return true;
    const stored = dedupe.readBegun(id);
    const event = stored && parseEnvelope(stored.body);
    if (stored === undefined || event === undefined || typeof event === 'string') return true;
    this.inflight.set(id, null);
    this.life.begin();
    try {
      const { body, headers } = stored;
      return await takeThrough(this, { event, body, headers, res: undefined, attempt, fromQueue: true });
    } finally {
      this.life.end();
    }
  }

  resume(list: InterruptedDelivery[]): number {
    let n = 0;
    for (const interrupted of list) {
      const { id } = interrupted;
      if (this.inflight.has(id) || this.options.dedupe.has(id)) continue;
      const stored = interrupted.read();
      const event = stored && parseEnvelope(stored.body);
      if (stored === undefined || event === undefined || typeof event === 'string' || event.id !== id) continue;
      const { forwarder } = this.options;
      const target = forwarder?.pick ? forwarder.pick(event.type) : forwarder;
      // A failed forward waits its turn in the queue (it was never shown); without a target any more it goes on now.
      if (interrupted.queued && target && this.queue) {
        this.queue.add(id, target.url, 1);
        continue;
      }
      if (!interrupted.queued) {
        n++;
        this.interrupted.add(id); // it may have been shown before the crash
      }
      this.inflight.set(id, null);
      this.life.begin();
      void takeThrough(this, { event, body: stored.body, headers: stored.headers, res: undefined, attempt: 1 }).finally(
        () => this.life.end(),
      );
    }
    return n;
  }
}

export function createDeliveries(options: ReceiverOptions, stats: ReceiverStats, life: Lifecycle): Deliveries {
  const p = new Pipeline(options, stats, life);
  return {
    receive: (req, res, body) => void receive(p, req, res, body),
    resume: (list) => p.resume(list),
  };
}
