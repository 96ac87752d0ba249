/**
 * The one rule for dates and date-times. A date is `YYYY-MM-DD` naming a day the calendar has; a
 * date-time is RFC 3339 (`2025-10-13T09:30:00Z`, `…T09:30:00.250+02:00`; `T` and `Z` in either case)
 * on such a day, hours 00-23, minutes and seconds 00-59 (a leap second, `:60`, is refused:
 * JavaScript's Date cannot hold it), with a zone. The emulator's request validators (the
 * description's `date` and `date-time` formats) and handlers read dates with it, the client reads
 * what the service sends with it (challenge and session expiries, webhook timestamps), and the
 * CLI's date flags and `--since` check the day with it. Date.parse alone is not enough: it rolls
 * 2025-02-30 over to 2 March and reads a date-time without a zone as local time.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function isDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** `YYYY-MM-DD` of a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** An RFC 3339 date-time on a real calendar day. */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  return m !== null && isDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Epoch milliseconds of an RFC 3339 date-time, or undefined when it is not one. */
export function parseDateTime(value: string): number | undefined {
  return isDateTime(value) ? Date.parse(value.toUpperCase()) : undefined;
}
