/**
 * Random test data that never lands on a sandbox magic value. The sandbox steers outcomes by the
 * last three characters of names, registration numbers, account identifiers and card merchant
 * descriptors (the spec's "Sandbox magic values"; src/service holds each table), plus a few fixed
 * codes; a test that draws such a value plainly fails now and then (a cardholder named "… 004"
 * gets a rejected card). Every test that draws a name, amount, account number or code uses these.
 */
import { randomInt } from 'node:crypto';
import {
  BENEFICIAL_OWNER_KYC,
  BENEFICIARY_NAME_VERIFICATION,
  BUSINESS_KYB,
  CARD_AUTHORIZATION,
  EXTERNAL_ACCOUNT_TRANSFER,
  INDIVIDUAL_KYC,
  QUOTE_EXECUTION,
  SANDBOX_OTP_CODE,
  SANDBOX_SCA_CODE,
  type SuffixTable,
  umaScenario,
} from '../../src/service/index.js';

/** Every table whose rows steer an outcome by a value's ending. */
export const MAGIC_SUFFIX_TABLES: readonly SuffixTable<unknown>[] = [
  INDIVIDUAL_KYC,
  BUSINESS_KYB,
  BENEFICIAL_OWNER_KYC,
  EXTERNAL_ACCOUNT_TRANSFER,
  BENEFICIARY_NAME_VERIFICATION,
  QUOTE_EXECUTION,
  CARD_AUTHORIZATION,
];

/** The emulator's own magic beside the spec's: a cardholder fullName ending in 004 gets a rejected card (src/emulator/features/cards). */
const EMULATOR_SUFFIXES = ['004'];

const MAGIC_SUFFIXES = new Set([
  ...MAGIC_SUFFIX_TABLES.flatMap((table) => table.rows.map((row) => row.suffix!)),
  ...EMULATOR_SUFFIXES,
]);
const SUFFIX_LENGTH = 3;
const MAGIC_CODES = new Set([SANDBOX_OTP_CODE, SANDBOX_SCA_CODE]);

/**
 * Whether a value would steer the sandbox: a magic ending (of the whole value, or of the part before
 * an `@`, where the spec reads an address's digits), a magic UMA address, or a fixed sandbox code.
 */
export function isMagic(value: string): boolean {
  const at = value.lastIndexOf('@');
  const ends = at > 0 ? [value, value.slice(0, at)] : [value];
  return (
    ends.some((end) => MAGIC_SUFFIXES.has(end.slice(-SUFFIX_LENGTH))) ||
    umaScenario(value) !== undefined ||
    MAGIC_CODES.has(value)
  );
}

/** Draws until the value is not magic (a shape that is all magic is a mistake in the test). */
function drawClear(draw: () => string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const value = draw();
    if (!isMagic(value)) return value;
  }
  throw new Error('random-data: every value drawn was magic; widen the shape');
}

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of `alphabet`, drawn plainly (magic or not). */
export function plainDraw(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Random decimal digits (a code, an account number, a registration number), never magic. */
export function randomDigits(length: number): string {
  return drawClear(() => plainDraw(DIGITS, length));
}

/** A bank account number of `length` digits, never ending in a magic suffix. */
export function randomAccountNumber(length = 10): string {
  return randomDigits(length);
}

/** A person's or business's name, `<prefix> <4 digits>` so names differ, never ending in a magic suffix. */
export function randomName(prefix = 'Test Person'): string {
  return drawClear(() => `${prefix} ${plainDraw(DIGITS, 4)}`);
}

/** A lowercase letters-and-digits token (ids, email local parts, merchant descriptors), never magic. */
export function randomToken(length = 10): string {
  return drawClear(() => plainDraw(LOWER, length));
}

/** An email address on example.test, never magic. */
export function randomEmail(): string {
  return `${randomToken()}@example.test`;
}

/** A whole amount in the smallest unit, from `min` to `max` inclusive, whose digits are never magic. */
export function randomAmount(min = 1, max = 1_000_000): number {
  return Number(drawClear(() => String(min + randomInt(max - min + 1))));
}
