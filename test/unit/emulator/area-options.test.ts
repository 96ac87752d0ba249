/**
 * The emulator's option sets (src/emulator/options.ts): each area's options are its own, so two
 * areas naming one option, or one flag, would silently override each other; and every declared
 * flag reaches `svc emulator start`.
 */
import { describe, expect, it } from 'vitest';
import { emulatorFlags } from '../../../commands/emulator/option-flags.js';
import { optionsFromFlags } from '../../../commands/emulator/options-from-flags.js';
import { UsageError } from '../../../src/errors.js';
import { OPTIONS, resolveOptions } from '../../../src/emulator/options.js';

describe('the emulator option sets', () => {
  it('no two areas declare the same option, resolved option or flag', () => {
    const resolved = OPTIONS.flatMap((area) => Object.keys(area.resolve({})));
    expect(new Set(resolved).size).toBe(resolved.length);
    const flags = OPTIONS.flatMap((area) => Object.values(area.flags).map((f) => f.syntax.split(' ')[0]));
    expect(new Set(flags).size).toBe(flags.length);
    const keys = OPTIONS.flatMap((area) => Object.keys(area.flags));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('emulator start has every declared flag, with its default', () => {
    const flags = emulatorFlags();
    expect(Object.values(flags).map((f) => f.syntax.split(' ')[0])).toEqual(
      expect.arrayContaining([
        '--port',
        '--session-ttl',
        '--card-issuance',
        '--transaction-limits',
        '--processing-retries',
      ]),
    );
    expect(flags.sessionTtlSeconds).toMatchObject({ syntax: '--session-ttl <seconds>', default: '900' });
    expect(flags.duplicateDeliveries.kind).toBe('boolean');
    // Shell completion offers the words an option takes.
    expect(flags.cardIssuance).toMatchObject({ choices: ['accept', 'reject'], default: 'accept' });
  });

  it('flag text becomes each area option, which resolves into what its handlers read', () => {
    const options = optionsFromFlags({
      port: '0',
      sessionTtlSeconds: '60',
      cardIssuance: 'reject',
      transactionLimits: 'USD=5',
      duplicateDeliveries: true,
    });
    expect(options).toEqual({
      port: 0,
      sessionTtlSeconds: 60,
      cardIssuance: 'reject',
      transactionLimits: { USD: 5 },
      duplicateDeliveries: true,
    });
    expect(resolveOptions(options)).toMatchObject({
      sessionTtlMs: 60_000,
      cardIssuance: 'reject',
      transactionLimits: { USD: 5, EUR: 10_000_000 },
      revealTtlMs: 60_000,
    });
  });

  it('a bad value names the flag it came from, or the option when given to startEmulator', () => {
    expect(() => optionsFromFlags({ sessionTtlSeconds: '0' })).toThrow(
      expect.objectContaining({ input: '--session-ttl' }) as unknown as Error,
    );
    expect(() => resolveOptions({ revealTtlSeconds: 0 })).toThrow(UsageError);
    expect(() => resolveOptions({ revealTtlSeconds: 0 })).toThrow('revealTtlSeconds must be an integer >= 1');
  });
});
