/** The one backoff rule: doubling from initialMs, capped at maxMs, jitter in the upper half. */
import { describe, expect, it } from 'vitest';
import { backoffMs, jitteredBackoffMs } from '../../src/backoff.js';
import { seededRandom } from '../helpers/seeded-random.js';

const policy = { initialMs: 1000, maxMs: 60_000 };

describe('backoffMs', () => {
  it('starts at initialMs and doubles on each retry', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(policy, n))).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000]);
  });

  it('never exceeds maxMs, however many retries (no Infinity, no NaN)', () => {
    expect(backoffMs(policy, 6)).toBe(60_000); // 64 s capped
    expect(backoffMs(policy, 1000)).toBe(60_000);
    expect(backoffMs(policy, 5000)).toBe(60_000);
    expect(backoffMs({ initialMs: 0, maxMs: 500 }, 5000)).toBe(0);
  });

  it('reads a negative retry as the first', () => {
    expect(backoffMs(policy, -3)).toBe(1000);
  });

  it('caps the first wait too when initialMs exceeds maxMs', () => {
    expect(backoffMs({ initialMs: 5000, maxMs: 2000 }, 0)).toBe(2000);
  });
});

describe('jitteredBackoffMs', () => {
  it('random 0 gives half the wait, random just under 1 the whole wait', () => {
    expect(jitteredBackoffMs(policy, 2, () => 0)).toBe(2000);
    expect(jitteredBackoffMs(policy, 2, () => 0.999_999)).toBe(4000);
    expect(jitteredBackoffMs(policy, 2, () => 0.5)).toBe(3000);
    expect(jitteredBackoffMs(policy, 40, () => 0)).toBe(30_000); // the cap is halved, not the uncapped wait
  });

  it('stays within [wait/2, wait], whole ms, over many seeded draws, and spreads across that range', () => {
    const random = seededRandom(38);
    for (let retry = 0; retry < 10; retry++) {
      const wait = backoffMs(policy, retry);
      const draws = Array.from({ length: 200 }, () => jitteredBackoffMs(policy, retry, random));
      for (const ms of draws) {
        expect(Number.isInteger(ms)).toBe(true);
        expect(ms).toBeGreaterThanOrEqual(wait / 2);
        expect(ms).toBeLessThanOrEqual(wait);
      }
      // Jitter, not a constant: both quarters of the range are hit.
      expect(draws.some((ms) => ms < wait * 0.625)).toBe(true);
      expect(draws.some((ms) => ms > wait * 0.875)).toBe(true);
    }
  });
});
