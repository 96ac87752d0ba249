/**
 * The P-256 curve every module here uses, configured once.
 *
 * noble multiplies the base point faster with a table of its multiples, but building the table
 * (window 5: ~15 ms on a cold process) costs more than the two to four multiplications a CLI
 * command makes (~3 ms each without it). So a process starts without the table and builds it once
 * it has shown that it makes many: a server such as the emulator, or a loop. Window 5 rather than
 * noble's 6 builds in about half the time and signs ~8% slower in a tight loop.
 */
import { p256 as noble } from '@noble/curves/nist.js';

/** Base-point multiplications after which the table pays for itself. */
const TABLE_AFTER = 8;
const TABLE_WINDOW = 5;
let baseMultiplications = 0;

noble.Point.BASE.precompute(1); // window 1: noble's table-less path, until TABLE_AFTER

function counted<F extends (...args: never[]) => unknown>(f: F): F {
  return ((...args: Parameters<F>) => {
    if (++baseMultiplications === TABLE_AFTER) noble.Point.BASE.precompute(TABLE_WINDOW);
    return f(...args);
  }) as F;
}

/** noble's p256, with the two calls that multiply the base point counted. */
export const p256: typeof noble = {
  ...noble,
  getPublicKey: counted(noble.getPublicKey),
  sign: counted(noble.sign),
};
