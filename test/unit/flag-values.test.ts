/**
 * Flags whose spec says what they take (flag.choices, flag.integer): run-verb.ts checks them before
 * `run` with checkFlagValues, so a bad value is exit 2 naming the flag and what it takes.
 */
import { describe, expect, it } from 'vitest';
import { checkFlagValues } from '../../commands/flag-values.js';
import { defineVerb, flag } from '../../commands/verb.js';
import { UsageError } from '../../src/errors.js';

const spec = defineVerb({
  name: 'serve',
  description: 'test verb',
  flags: {
    port: flag.integer('--port <port>', 'port', { min: 0, max: 65535 }, 4242),
    last: flag.integer('--last <n>', 'how many', { min: 1 }),
    outcome: flag.choices('--outcome <outcome>', 'accept or reject', ['accept', 'reject']),
    name: flag.value('--name <name>', 'free text'),
    kinds: { ...flag.choices('--kinds <list>', 'a list', ['A', 'b']), list: true },
  },
});

function refusal(options: Record<string, unknown>): UsageError {
  try {
    checkFlagValues(spec, options);
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('accepted');
}

describe('checkFlagValues', () => {
  it('gives run an integer as a number, and leaves absent and free-text flags as they are', () => {
    expect(checkFlagValues(spec, { port: '8080', last: undefined, outcome: 'reject', name: '12' })).toEqual({
      port: 8080,
      last: undefined,
      outcome: 'reject',
      name: '12',
    });
  });

  it('refuses an integer out of range or not whole, naming the flag and the range', () => {
    for (const port of ['65536', '-1', '80.5', 'eighty', '']) {
      const error = refusal({ port });
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`--port must be an integer from 0 to 65535, got ${JSON.stringify(port)}`);
      expect(error.input).toBe('--port');
    }
    // No upper bound: the message says so rather than spell MAX_SAFE_INTEGER.
    expect(refusal({ last: '0' }).message).toBe('--last must be an integer of 1 or more, got "0"');
  });

  it('refuses a value that is not one of the choices, naming them and the nearest', () => {
    const error = refusal({ outcome: 'maybe' });
    expect(error.message).toBe('--outcome must be one of accept, reject; got "maybe"');
    expect(error.input).toBe('--outcome');
    expect(refusal({ outcome: 'rejct' }).message).toBe(
      '--outcome must be one of accept, reject; got "rejct" (did you mean reject?)',
    );
  });

  it('takes a choice in any case and gives run the spelling of the spec', () => {
    expect(checkFlagValues(spec, { outcome: 'ACCEPT' }).outcome).toBe('accept');
    expect(checkFlagValues(spec, { kinds: 'B,a' }).kinds).toBe('b,A');
  });

  it('shows an integer default in help as commander does for any default', () => {
    expect(spec.flags?.port.default).toBe('4242');
  });
});
