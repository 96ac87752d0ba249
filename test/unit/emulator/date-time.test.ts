/** The emulator's one date and date-time rule (src/emulator/kernel/date-time.ts). */
import { describe, expect, it } from 'vitest';
import { isCalendarDate, isDateTime, parseDateTime } from '../../../src/emulator/kernel/date-time.js';

describe('dates and date-times', () => {
  it.each(['2024-02-29', '2000-02-29', '1999-12-31'])('%s is a calendar date', (d) =>
    expect(isCalendarDate(d)).toBe(true),
  );
  it.each(['2023-02-29', '1900-02-29', '2024-13-01', '2024-04-31', '2024-1-01', '20240101', ''])('%s is not', (d) =>
    expect(isCalendarDate(d)).toBe(false),
  );
  it.each([
    '2025-10-13T09:30:00Z',
    '2025-10-13t09:30:00z',
    '2025-10-13T09:30:00.123456+02:00',
    '2024-02-29T23:59:59-23:59',
  ])('%s is an RFC 3339 date-time', (v) => expect(isDateTime(v)).toBe(true));
  it.each([
    'March 7, 2099 10:00',
    '2099-03-07 10:00:00Z',
    '2099-03-07T10:00:00',
    '2099-02-30T10:00:00Z',
    '2099-03-07T24:00:00Z',
    '2099-03-07T10:60:00Z',
    '2099-03-07T10:00:60Z',
    '2099-03-07T10:00:00+24:00',
    '2099-03-07T10:00Z',
  ])('%s is not', (v) => expect(isDateTime(v)).toBe(false));
  it('parses with its zone, whatever the case of T and Z', () => {
    expect(parseDateTime('2025-10-13t09:30:00z')).toBe(Date.UTC(2025, 9, 13, 9, 30));
    expect(parseDateTime('2025-10-13T11:30:00+02:00')).toBe(Date.UTC(2025, 9, 13, 9, 30));
    expect(parseDateTime('2025-02-30T09:30:00Z')).toBeUndefined();
  });
});
