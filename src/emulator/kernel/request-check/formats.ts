/**
 * The description's string formats as the emulator enforces them, for the generated validators
 * (each generated `opN.cjs` module calls FORMATS[name]). The description's numeric formats (int32,
 * int64, float, double) and `binary` are size hints and are not checked.
 */
import { isCountryCode } from '../../../service/iso3166.js';
import { isCalendarDate, isDateTime } from '../../../date-time.js';

/** One `@`, something before it, a dotted domain after it, no spaces: what a mail server would try. */
const EMAIL = /^[^\s@]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** An absolute URI: a scheme, then something (RFC 3986 section 3). */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

function isUri(value: string): boolean {
  if (!URI.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export const FORMATS: Record<string, (value: string) => boolean> = {
  date: isCalendarDate,
  'date-time': isDateTime,
  email: (value) => EMAIL.test(value),
  uri: isUri,
  uuid: (value) => UUID.test(value),
  'iso3166-1-alpha-2': isCountryCode,
};

/** What a refusal says each format is. */
export const FORMAT_HINTS: Record<string, string> = {
  date: 'a calendar date YYYY-MM-DD, such as 2025-10-13',
  'date-time': 'an RFC 3339 date-time with its zone, such as 2025-10-13T09:30:00Z',
  email: 'an email address, such as name@example.com',
  uri: 'an absolute URI, such as https://example.com/path',
  uuid: 'a UUID, such as 123e4567-e89b-12d3-a456-426614174000',
  'iso3166-1-alpha-2': 'an ISO 3166-1 alpha-2 country code, such as US or FR',
};
