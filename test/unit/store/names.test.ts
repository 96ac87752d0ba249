import { describe, expect, it } from 'vitest';
import { sessionFileName, validateProfileName } from '../../../src/store/names.js';
import { UsageError } from '../../../src/errors.js';

describe('sessionFileName', () => {
  it('keeps ids readable and encodes every other byte', () => {
    expect(sessionFileName('Session:0d7e-11')).toBe('Session_3a0d7e-11');
    expect(sessionFileName('a_b.c/d')).toBe('a_5fb_2ec_2fd');
    expect(sessionFileName('ü')).toBe('_c3_bc');
  });

  it('never maps two ids to one name', () => {
    const ids = ['Session:a', 'Session_3aa', 'Session_a', 'session:a'];
    expect(new Set(ids.map(sessionFileName)).size).toBe(ids.length);
  });

  it('refuses empty or absurd ids', () => {
    expect(() => sessionFileName('')).toThrow(UsageError);
    expect(() => sessionFileName('x'.repeat(201))).toThrow(UsageError);
  });
});

describe('validateProfileName', () => {
  it('accepts ordinary names and rejects the rest naming --profile', () => {
    for (const ok of ['default', 'staging-2', 'team.dev', 'A_b']) expect(validateProfileName(ok)).toBe(ok);
    for (const bad of ['', '.hidden', '__proto__', 'a/b', 'a b', 'x'.repeat(65), 5]) {
      try {
        validateProfileName(bad);
        throw new Error(`accepted ${String(bad)}`);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        expect((e as UsageError).input).toBe('profile');
      }
    }
  });
});
