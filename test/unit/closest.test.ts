/** "Did you mean …?": one edit-distance rule for profile names and webhook event types. */
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/closest.js';
import { closestName } from '../../commands/config/known-profile.js';
import { parseEventTypes } from '../../src/webhook/event-types.js';
import { UsageError } from '../../src/errors.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('closest', () => {
  it('offers the nearest candidate within the limit, the first on a tie, nothing beyond it', () => {
    expect(closest('stagign', ['prod', 'staging'], 2)).toBe('staging');
    expect(closest('ab', ['ax', 'ay'], 1)).toBe('ax');
    expect(closest('zzzz', ['prod', 'staging'], 2)).toBeUndefined();
    expect(closest('PROD', ['prod'], 0, (s) => s.toLowerCase())).toBe('prod');
  });

  it('profile names compare without case and return the stored spelling', () => {
    expect(closestName('STAGIGN', ['default', 'Staging'])).toBe('Staging');
    expect(closestName('elsewhere', ['default', 'staging'])).toBeUndefined();
  });

  it('an event type one typo away is suggested in the --events error', () => {
    let error: unknown;
    try {
      parseEventTypes('card.state-chnage', '--events');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).hint).toMatch(/^Did you mean CARD\.STATE_CHANGE\?/);
  });
});
