/**
 * The receiver's options, callbacks and results: shared by the server (receiver.ts) and the
 * delivery pipeline (pipeline.ts), which would otherwise import each other.
 */
import type { SeenIds } from './seen-ids.js';
import type { WebhookEvent } from './envelope.js';
import type { ForwardResult, Forwarder } from './forward.js';

/**
 * Checks the signature header over the raw body: createWebhookVerifier's function (synchronous), or
 * one that verifies off the event loop and resolves later (createAsyncWebhookVerifier in src/crypto/webhook-signature.ts).
 */
export type Verify = (body: Uint8Array, header: string | undefined) => boolean | Promise<boolean>;

export interface Rejection {
  status: number;
  reason: string;
  /** Remote address of the sender, for the warning line. */
  remote?: string;
}

export interface AcceptedEvent {
  event: WebhookEvent;
  /** The body exactly as received (the signed bytes) that `event` was parsed from. */
  body: Buffer;
  verified: boolean;
  /** The app's answer when forwarding: 2xx, or 409 (it already had the event), which is passed back. */
  forward?: ForwardResult;
  /** A crash interrupted this delivery (journal only): it may have been printed or forwarded before. */
  redelivered?: boolean;
  /** Journal only: the forward that succeeded was this local attempt (set only after failed ones, from 2). */
  attempt?: number;
}

export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** Required on purpose: only an explicit undefined (verify nothing) turns verification off. */
  verify: Verify | undefined;
  dedupe: SeenIds;
  /** Types to report and forward; others are acknowledged and recorded silently. Empty/absent: all. */
  events?: Iterable<string>;
  forwarder?: Forwarder;
  maxBodyBytes?: number;
  /** Whole-request limit (slow or truncated bodies get 408). Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Reports an event. A promise delays recording the id (and the 200) until it settles: the listener
   * returns one while its line is still queued in memory, not yet written to stdout.
   */
  onEvent(accepted: AcceptedEvent): void | Promise<void>;
  onFiltered?(event: WebhookEvent): void;
  /** A repeated id of a type that is shown; repeats of filtered types stay as silent as the type. */
  onDuplicate?(event: WebhookEvent): void;
  onRejected?(rejection: Rejection): void;
  onForwardFailed?(event: WebhookEvent, result: ForwardResult): void;
  /**
   * Journal only: the delivery stays in the journal and `target` is tried again in `retryInMs`. `result`:
   * the app's answer to attempt `attempt`; undefined (attempt 0) when it joined deliveries already waiting for `target`.
   */
  onForwardQueued?(
    event: WebhookEvent,
    result: ForwardResult | undefined,
    attempt: number,
    retryInMs: number,
    target: string,
  ): void;
  /** Backoff of those local retries per target: initialMs doubling up to maxMs, with jitter. Default 1000 / 60000. */
  forwardRetry?: { initialMs?: number; maxMs?: number; random?: () => number };
  /**
   * Runs a local retry `ms` from now. Default: an unref'd timer; a test passes its own clock to see
   * the schedule and run each retry when it chooses, instead of waiting for timers.
   */
  scheduleRetry?(run: () => void, ms: number): void;
  /** The id could not be recorded (disk error): answered 500 so the service retries. */
  onError?(error: unknown, event: WebhookEvent): void;
}

export interface ReceiverStats {
  received: number;
  duplicates: number;
  rejected: number;
  filtered: number;
  forwardFailed: number;
}

export interface WebhookReceiver {
  /** http://host:port/path */
  readonly url: string;
  readonly port: number;
  readonly stats: Readonly<ReceiverStats>;
  /** Deliveries a crash interrupted, taken up again from the journal at start. */
  readonly resumed: number;
  /** Stops accepting, lets deliveries in progress finish (up to graceMs), then closes all sockets. */
  close(graceMs?: number): Promise<void>;
}
