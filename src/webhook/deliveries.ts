/**
 * What happens to a verified, well-formed delivery: drop it if its id was processed, wait if the
 * same id is being processed right now, else forward it (--forward-to), record its id, and only then
 * report it and answer. The order is the crash contract of dedupe.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookEvent } from './envelope.js';
import type { ForwardResult } from './forward.js';
import type { ReceiverOptions, ReceiverStats } from './receiver-types.js';
import * as R from './replies.js';

export interface Deliveries {
  accept(req: IncomingMessage, res: ServerResponse, event: WebhookEvent, body: Buffer): void;
}

/** The receiver's side: `begin`/`end` bracket the work close() waits for; `stopping` is true once it closes. */
export interface Lifecycle {
  begin(): void;
  end(): void;
  stopping(): boolean;
}

export function createDeliveries(options: ReceiverOptions, stats: ReceiverStats, { begin, end, stopping }: Lifecycle): Deliveries {
  const { dedupe, forwarder } = options;
  const verified = options.verify !== undefined;
  const wanted = options.events ? new Set(options.events) : undefined;
  const filtering = wanted !== undefined && wanted.size > 0;
  /** Ids being processed right now, with deliveries of the same id waiting for the outcome. */
  const inflight = new Map<string, Array<() => void> | null>();

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
    if (inflight.has(id)) {
      // Same id still being forwarded or recorded: its outcome decides (duplicate, or our turn).
      let waiting = inflight.get(id);
      if (!waiting) inflight.set(id, (waiting = []));
      waiting.push(() => accept(req, res, event, body));
      return;
    }
    inflight.set(id, null);
    begin();
    if (!shown || !forwarder) return commit(res, event, shown, undefined, R.ACCEPTED);
    forwarder.forward(body, req.headers).then(
      (result) => {
        if (result.ok) commit(res, event, shown, result, R.ACCEPTED);
        // The app already had it: done, for an at-least-once consumer; the 409 stops the retries too.
        else if (result.status === 409) commit(res, event, shown, result, R.APP_HAD_IT);
        else forwardFailed(res, event, result);
      },
      (error) => storeFailed(res, event, error),
    );
  }

  function commit(res: ServerResponse, event: WebhookEvent, shown: boolean, forward: ForwardResult | undefined, answer: R.Reply): void {
    const durable = dedupe.record(event.id);
    if (durable === undefined) return report(res, event, shown, forward, answer);
    durable.then(
      () => report(res, event, shown, forward, answer),
      (error) => storeFailed(res, event, error),
    );
  }

  /** Recorded: report it, then answer. A report failure (closed stdout) must not lose the answer. */
  function report(res: ServerResponse, event: WebhookEvent, shown: boolean, forward: ForwardResult | undefined, answer: R.Reply): void {
    stats.received++;
    try {
      if (shown) options.onEvent(forward ? { event, verified, forward } : { event, verified });
      else {
        stats.filtered++;
        options.onFiltered?.(event);
      }
    } catch (error) {
      options.onError?.(error, event);
    }
    R.send(res, answer);
    settle(event.id);
  }

  function forwardFailed(res: ServerResponse, event: WebhookEvent, result: ForwardResult): void {
    stats.forwardFailed++;
    R.send(res, R.reply(result.status, { error: result.error ?? `forward target answered ${result.status}` }));
    options.onForwardFailed?.(event, result);
    settle(event.id);
  }

  function storeFailed(res: ServerResponse, event: WebhookEvent, error: unknown): void {
    R.send(res, R.STORE_FAILED);
    options.onError?.(error, event);
    settle(event.id);
  }

  function settle(id: string): void {
    const waiting = inflight.get(id);
    inflight.delete(id);
    if (waiting) for (const retry of waiting) retry();
    end();
  }

  return { accept };
}
