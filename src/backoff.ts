/**
 * Exponential backoff, the one rule of every retry loop (the signed retry's PROCESSING re-sends, the
 * emulator's webhook outbox, the listener's failed-forward queue): the wait before retry `n` (0 for
 * the first) is `initialMs` doubled `n` times, never more than `maxMs`. A jittered wait is drawn
 * from the upper half of that, so clients retrying together drift apart yet never wait less than
 * half the step.
 */

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** The wait before retry `retry` (0-based): initialMs · 2^retry, at most maxMs. */
export function backoffMs(policy: BackoffPolicy, retry: number): number {
  // Past 1023 doublings 2 ** n is Infinity, and 0 · Infinity is NaN: the cap is reached long before.
  const doublings = Math.min(Math.max(0, retry), 1023);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** doublings);
}

/** backoffMs with jitter: a whole number of ms in [wait/2, wait], `random` in [0, 1) choosing where. */
export function jitteredBackoffMs(policy: BackoffPolicy, retry: number, random: () => number): number {
  const wait = backoffMs(policy, retry);
  return Math.round(wait / 2 + (random() * wait) / 2);
}
