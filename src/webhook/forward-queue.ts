/**
 * The failed-forward queue (with a journal only). Memory holds ids, in order, per forward target;
 * the bodies stay in the journal and are read back when an id's turn comes. A failing target is
 * retried one delivery at a time with exponential backoff and jitter: from `initialMs`, doubling on
 * each failure, to at most `maxMs` (default 1 s to 60 s), each wait drawn from its upper half. So a
 * dead app sees about one attempt per wait, however many deliveries wait for it. While a target has
 * deliveries waiting, new ones for it join the queue behind them without an attempt of their own;
 * once an attempt succeeds the queue is drained, one after another.
 */
import { jitteredBackoffMs } from '../backoff.js';

export interface ForwardQueueOptions {
  initialMs?: number;
  maxMs?: number;
  /** Runs `run` `ms` from now. Default: an unref'd timer; a test passes its own clock. */
  schedule?: (run: () => void, ms: number) => void;
  /** True once the listener closes: no more tries start (what waits stays in the journal). */
  stopping?: () => boolean;
  /** In [0, 1): the jitter. Default Math.random. */
  random?: () => number;
  /** Tries the queued delivery again; resolves true if its forward succeeded (or it needs none any more). */
  retry(id: string, attempt: number): Promise<boolean>;
}

interface Target {
  /** Waiting ids, oldest first, with the attempts made so far. */
  readonly waiting: Map<string, number>;
  /** Failures in a row: the next wait. */
  failures: number;
  /** Whether a try is scheduled (and its wait) or under way. */
  state: 'idle' | 'scheduled' | 'trying';
  scheduledMs: number;
  /** The wait the next failure schedules (drawn once, so what is reported is what is waited). */
  nextWaitMs: number | undefined;
}

const DEFAULT_RETRY_INITIAL_MS = 1000;
const DEFAULT_RETRY_MAX_MS = 60_000;

export class ForwardQueue {
  private readonly targets = new Map<string, Target>();
  /** Id → its target's key, for `has`. */
  private readonly ids = new Map<string, string>();
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly schedule: (run: () => void, ms: number) => void;
  private readonly random: () => number;

  constructor(private readonly options: ForwardQueueOptions) {
    this.initialMs = options.initialMs ?? DEFAULT_RETRY_INITIAL_MS;
    this.maxMs = options.maxMs ?? DEFAULT_RETRY_MAX_MS;
    this.schedule = options.schedule ?? ((run, ms) => setTimeout(run, ms).unref());
    this.random = options.random ?? Math.random;
  }

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Deliveries wait for this target: a new one joins them instead of trying now. */
  waitingFor(target: string): boolean {
    return (this.targets.get(target)?.waiting.size ?? 0) > 0;
  }

  /**
   * Queues `id` for `target` after `attempts` attempts (0: it joined without one). Returns the ms
   * until the target's next try.
   */
  add(id: string, target: string, attempts: number): number {
    let t = this.targets.get(target);
    if (t === undefined) {
      t = { waiting: new Map(), failures: 0, state: 'idle', scheduledMs: 0, nextWaitMs: undefined };
      this.targets.set(target, t);
    }
    t.waiting.set(id, attempts);
    this.ids.set(id, target);
    if (t.state === 'idle') this.after(t, target, attempts > 0);
    else if (t.state === 'trying') return this.nextWait(t); // the wait if the try under way fails
    return t.scheduledMs;
  }

  private nextWait(t: Target): number {
    t.nextWaitMs ??= jitteredBackoffMs({ initialMs: this.initialMs, maxMs: this.maxMs }, t.failures, this.random);
    return t.nextWaitMs;
  }

  /** Schedules the target's next try: after the backoff wait if the last attempt failed, else at once. */
  private after(t: Target, key: string, failed: boolean): void {
    if (t.waiting.size === 0 || this.options.stopping?.()) {
      t.state = 'idle';
      return;
    }
    let wait = 0;
    if (failed) {
      wait = this.nextWait(t);
      t.failures++;
      t.nextWaitMs = undefined;
    }
    t.state = 'scheduled';
    t.scheduledMs = wait;
    this.schedule(() => this.tryNext(t, key), wait);
  }

  private tryNext(t: Target, key: string): void {
    const first = t.waiting.entries().next();
    if (first.done || this.options.stopping?.()) {
      t.state = 'idle';
      return;
    }
    t.state = 'trying';
    const [id, attempts] = first.value;
    t.waiting.delete(id);
    this.ids.delete(id);
    this.options.retry(id, attempts + 1).then(
      (ok) => {
        if (ok) {
          t.failures = 0;
          t.nextWaitMs = undefined;
        }
        this.after(t, key, !ok);
      },
      () => this.after(t, key, true),
    );
  }
}
