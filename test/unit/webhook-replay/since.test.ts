/** `since` values of a replay: spans counted back on a given clock, zoned date-times, dates; the rest refused. */
import { describe, expect, it } from 'vitest';
import { resolveSince, sinceProblem } from '../../../src/webhook-replay/since.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');

describe('since', () => {
  it.each([
    ['90s', NOW - 90_000],
    ['15m', NOW - 15 * 60_000],
    ['2h', NOW - 2 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['0s', NOW],
    ['2026-11-26T09:30:00Z', Date.parse('2026-11-26T09:30:00Z')],
    ['2026-11-26T09:30:00.250+01:00', Date.parse('2026-11-26T08:30:00.250Z')],
    ['2026-11-26T09:30Z', Date.parse('2026-11-26T09:30:00Z')],
    ['2026-11-25', Date.parse('2026-11-25T00:00:00Z')],
  ])('%s', (text, ms) => {
    expect(sinceProblem(text)).toBeUndefined();
    expect(resolveSince(text, NOW)).toBe(ms);
  });

  it.each(['', '1', 'h', '1w', '-5m', '1.5h', '2026-11-26T09:30:00', '2026-13-01', 'yesterday', '2026-11-26 09:30Z'])(
    'refuses %j',
    (text) => {
      expect(sinceProblem(text)).toMatch(/expected a span like 30m/);
      expect(resolveSince(text, NOW)).toBeUndefined();
    },
  );
});
