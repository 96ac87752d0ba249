/** VirtualClock: jumps fire due timers in order at their own time; repeating timers coalesce. */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/emulator/kernel/clock.js';

/** Barely moves on its own (a microsecond per real second), so only advance() matters. */
const still = () => new VirtualClock(1e-6, 1_000_000);

describe('VirtualClock', () => {
  it('a jump fires due timers in due order, each seeing its own due time; later ones wait', () => {
    const clock = still();
    const seen: string[] = [];
    clock.setTimer(300, () => seen.push(`c@${clock.now()}`));
    clock.setTimer(100, () => {
      seen.push(`a@${clock.now()}`);
      clock.setTimer(50, () => seen.push(`a+50@${clock.now()}`)); // set inside the jump: counts from 100
    });
    clock.setTimer(100, () => seen.push(`b@${clock.now()}`)); // same due time: insertion order
    clock.advance(200);
    expect(seen).toEqual(['a@1000100', 'b@1000100', 'a+50@1000150']);
    expect(clock.now()).toBe(1_000_200);
    clock.advance(100);
    expect(seen.at(-1)).toBe('c@1000300');
  });

  it('a repeating timer runs once per jump, at its last period inside it', () => {
    const clock = still();
    const runs: number[] = [];
    clock.every(10_000, () => runs.push(clock.now()));
    clock.advance(365 * 24 * 3600 * 1000);
    expect(runs).toEqual([1_000_000 + 3153600 * 10_000]);
    clock.advance(10_000);
    expect(runs).toHaveLength(2);
  });

  it('runs faster with a time scale, and nothing fires after stop()', async () => {
    const fast = new VirtualClock(1000);
    const start = fast.now();
    await new Promise((r) => setTimeout(r, 20));
    expect(fast.now() - start).toBeGreaterThanOrEqual(15_000);
    let fired = false;
    fast.setTimer(1, () => (fired = true));
    fast.stop();
    fast.advance(10);
    expect(fired).toBe(false);
  });

  it('refuses a bad scale or a backwards jump', () => {
    expect(() => new VirtualClock(0)).toThrow(RangeError);
    expect(() => still().advance(-1)).toThrow(RangeError);
  });
});
