/**
 * The emulator's one clock. Every time the emulator reads or waits for (timestamps, expiries, the
 * card issuance delay, webhook backoff, the sweeper) comes from here, so that
 * - `timeScale` runs it faster than the wall clock (the spec's 6-minute delay takes 6 s at 60), and
 * - `advance(ms)` jumps it: every timer that falls due in the jump fires at once, in due order,
 *   and sees `now()` already at its own due time, exactly as if the time had passed.
 * Only network waits (a webhook attempt's timeout) stay in real time: they are about sockets.
 */

interface Timer {
  dueMs: number;
  /** Insertion order breaks ties, so timers due together fire in the order they were set. */
  seq: number;
  fn: () => void;
  /** Repeating timers: the period. */
  everyMs?: number;
  /** The jump target this repeating timer was already coalesced for. */
  coalescedFor?: number;
}

export class VirtualClock {
  readonly timeScale: number;
  /** Virtual time at the last anchor, and the real time (performance.now) of that anchor. */
  private anchorMs: number;
  private anchorReal: number;
  /** While advance() fires timers, now() is pinned to the timer being fired. */
  private pinnedMs: number | undefined;
  private timers: Timer[] = [];
  private seq = 0;
  private wake: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(timeScale = 1, startMs = Date.now()) {
    if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError('timeScale must be a positive number');
    this.timeScale = timeScale;
    this.anchorMs = startMs;
    this.anchorReal = performance.now();
  }

  /** Virtual epoch milliseconds (an integer, like Date.now()). */
  now(): number {
    return this.pinnedMs ?? this.flowingNow();
  }

  private flowingNow(): number {
    return Math.floor(this.anchorMs + (performance.now() - this.anchorReal) * this.timeScale);
  }

  /** Runs fn once the virtual clock has moved delayMs on; a no-op after stop(). */
  setTimer(delayMs: number, fn: () => void): void {
    if (this.stopped) return;
    this.timers.push({ dueMs: this.now() + Math.max(0, delayMs), seq: this.seq++, fn });
    this.arm();
  }

  /**
   * Runs fn every everyMs of virtual time. A jump runs it once, at the last period inside the jump,
   * not once per period: a year's jump must not sweep three million times.
   */
  every(everyMs: number, fn: () => void): void {
    if (this.stopped) return;
    if (!(everyMs > 0)) throw new RangeError('every needs a positive period');
    this.timers.push({ dueMs: this.now() + everyMs, seq: this.seq++, fn, everyMs });
    this.arm();
  }

  /** Jumps the clock forward by ms, firing every timer that falls due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError('advance needs a non-negative number of milliseconds');
    const target = this.now() + Math.floor(ms);
    this.fireUntil(target);
    this.anchorMs = target;
    this.anchorReal = performance.now();
    this.arm();
  }

  /** Cancels every timer; none fires afterwards. */
  stop(): void {
    this.stopped = true;
    this.timers = [];
    if (this.wake) clearTimeout(this.wake);
    this.wake = undefined;
  }

  /** Fires due timers one by one (a timer may set new ones that are due too). */
  private fireUntil(targetMs: number): void {
    for (;;) {
      const next = this.earliest();
      if (!next || next.dueMs > targetMs || this.stopped) break;
      if (next.everyMs !== undefined && next.coalescedFor !== targetMs) {
        next.coalescedFor = targetMs;
        const skipped = Math.floor((targetMs - next.dueMs) / next.everyMs) * next.everyMs;
        if (skipped > 0) {
          next.dueMs += skipped;
          continue; // other timers due before its last period fire first
        }
      }
      this.timers.splice(this.timers.indexOf(next), 1);
      if (next.everyMs !== undefined) this.timers.push({ ...next, dueMs: next.dueMs + next.everyMs, seq: this.seq++ });
      // Inside a jump the timer sees its own due time; a late real timer sees the present (never the past).
      this.pinnedMs = Math.max(next.dueMs, this.flowingNow());
      try {
        next.fn();
      } finally {
        this.pinnedMs = undefined;
      }
    }
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers)
      if (!best || t.dueMs < best.dueMs || (t.dueMs === best.dueMs && t.seq < best.seq)) best = t;
    return best;
  }

  /** One real setTimeout for the earliest timer, scaled to real time. */
  private arm(): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = undefined;
    const next = this.earliest();
    if (!next || this.stopped) return;
    const realDelay = Math.max(0, (next.dueMs - this.now()) / this.timeScale);
    this.wake = setTimeout(
      () => {
        this.wake = undefined;
        this.fireUntil(this.now());
        this.arm();
      },
      Math.min(realDelay, 2 ** 31 - 1),
    );
  }
}
