/**
 * The ids a webhook receiver has processed, and the deliveries it had begun: what the receiver
 * asks, and what memory (dedupe.ts) or the journal file (journal/journal-file.ts) answers.
 */
import type { ForwardResult } from './forward.js';

/** A delivery begun but neither recorded nor released when the journal was last closed (or killed). */
export interface InterruptedDelivery {
  id: string;
  /** It was waiting for a local retry of a failed forward: never shown, so not marked redelivered. */
  queued: boolean;
  /** Its body and headers, read from the journal when needed (memory holds no bodies). */
  read(): BegunDelivery | undefined;
}

/** A begun delivery as journaled. */
export interface BegunDelivery {
  /** The body exactly as received (signed bytes). */
  body: Buffer;
  /** The service's headers, as forward.ts passes them on (the signature among them). */
  headers: Record<string, string>;
}

/** What the journal keeps of a delivery's outcome: what a replay from the journal reads. */
export interface DeliveryOutcome {
  /** The signature was checked (false when the listener verifies nothing). */
  verified: boolean;
  /** The app's answer, when forwarded. */
  forward?: ForwardResult;
}

export interface SeenIds {
  has(id: string): boolean;
  /**
   * Journals a delivery about to be printed or forwarded. In memory: nothing to do, returns undefined.
   * With a store: resolves once the body is on disk; rejects if the write or fsync failed.
   */
  begin(id: string, body: Uint8Array, headers: Record<string, string>): Promise<void> | undefined;
  /** Gives up a begun delivery without recording it (its forward failed: the service retries it). */
  release(id: string): void;
  /**
   * Notes that a begun delivery waits for a local retry (nothing shown yet); the retry begins it
   * again. With a store: resolves once the line is written, rejects if the write failed.
   */
  queue(id: string, outcome?: DeliveryOutcome): Promise<void> | undefined;
  /** A begun delivery's body and headers (journal only: read back from the file), else undefined. */
  readBegun(id: string): BegunDelivery | undefined;
  /** Deliveries a crash interrupted (begun, never recorded nor released), as loaded at open. */
  interrupted(): InterruptedDelivery[];
  /**
   * Marks a processed id. In memory only: done at once, returns undefined (nothing to wait for).
   * With a store: resolves once the id is on disk; `has(id)` turns true at that moment. Rejects if
   * the write or fsync failed (the caller must then not acknowledge the delivery).
   */
  record(id: string, outcome?: DeliveryOutcome): Promise<void> | undefined;
  readonly size: number;
  /** True with a journal file: begun deliveries survive a crash, so failed forwards can be retried locally. */
  readonly durable: boolean;
  /** What opening the journal moved aside (a torn or damaged tail), for the user to be told. */
  readonly notes: readonly string[];
  /** Resolves when everything recorded so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, then releases the store file. */
  close(): Promise<void>;
}
