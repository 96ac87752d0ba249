/** The one date and date-time rule (src/date-time.ts) and the places that read dates with it. */
import { describe, expect, it } from 'vitest';
import { isCalendarDate, isDateTime, parseDateTime } from '../../src/date-time.js';
import { parseAuthSession } from '../../src/auth/auth-session.js';
import { UsageError } from '../../src/errors.js';
import { parseChallenge } from '../../src/signing/challenge.js';
import { SCENARIOS } from '../../src/trigger/catalog.js';
import { checkInputs } from '../../src/trigger/inputs.js';
import { parseEnvelope } from '../../src/webhook/envelope.js';
import { resolveSince, sinceProblem } from '../../src/webhook-replay/since.js';
import { buildRequest } from '../../commands/resources/request.js';
import { OPERATIONS } from '../../commands/resources/table.js';
import { caught } from '../helpers/caught.js';

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

describe('the edges of the rule', () => {
  it('knows which century years are leap years', () => {
    expect(isCalendarDate('2000-02-29')).toBe(true); // divisible by 400
    expect(isCalendarDate('2100-02-29')).toBe(false); // by 100, not 400
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2025-00-10')).toBe(false);
    expect(isCalendarDate('2025-01-00')).toBe(false);
    expect(isCalendarDate('2025-12-31')).toBe(true);
    expect(isCalendarDate('2025-12-32')).toBe(false);
  });

  it('takes zones from -23:59 to +23:59 and moves the instant by them, across a day', () => {
    expect(parseDateTime('2024-02-29T23:30:00-01:00')).toBe(Date.UTC(2024, 2, 1, 0, 30));
    expect(parseDateTime('2024-03-01T00:30:00+14:00')).toBe(Date.UTC(2024, 1, 29, 10, 30));
    expect(parseDateTime('2025-01-01T00:00:00-00:00')).toBe(Date.UTC(2025, 0, 1));
    expect(isDateTime('2025-01-01T00:00:00+0100')).toBe(false);
    expect(isDateTime('2025-01-01T00:00:00+01')).toBe(false);
  });

  it('takes 1 to 9 fraction digits, no more', () => {
    expect(parseDateTime('2025-10-13T09:30:00.5Z')).toBe(Date.UTC(2025, 9, 13, 9, 30, 0, 500));
    expect(isDateTime('2025-10-13T09:30:00.123456789Z')).toBe(true);
    expect(isDateTime('2025-10-13T09:30:00.1234567890Z')).toBe(false);
    expect(isDateTime('2025-10-13T09:30:00.Z')).toBe(false);
  });
});

describe('every place that reads a date uses the rule', () => {
  const ctx = { method: 'POST', path: '/auth/sessions', status: 200 };
  const session = (expiresAt: string) => ({
    id: 'Session:11111111-1111-4111-8111-111111111111',
    accountId: 'InternalAccount:22222222-2222-4222-8222-222222222222',
    type: 'EMAIL_OTP',
    nickname: 'n',
    expiresAt,
  });
  const challenge = (expiresAt: string) => ({ payloadToSign: 'p', requestId: 'r', expiresAt });
  const envelope = (timestamp: string) =>
    new TextEncoder().encode(JSON.stringify({ id: 'Webhook:1', type: 'X', timestamp, data: {} }));
  // Date.parse reads each of these as some moment; none is an RFC 3339 date-time on a real day.
  const notDateTimes = ['2025-02-30T10:00:00Z', '2025-10-13T10:00:00', '2025-10-13', '2025-10-13T24:00:00Z'];

  it('the client: a challenge expiry, a session expiry and a webhook timestamp', () => {
    expect(parseChallenge(challenge('2024-02-29T10:00:00+02:00'), 'POST', '/x').expiresAtMs).toBe(
      Date.UTC(2024, 1, 29, 8),
    );
    expect(parseAuthSession(session('2024-02-29T10:00:00Z'), ctx).expiresAt).toBe('2024-02-29T10:00:00Z');
    expect(parseEnvelope(envelope('2024-02-29T10:00:00.123Z'))).toMatchObject({
      timestamp: '2024-02-29T10:00:00.123Z',
    });
    for (const bad of notDateTimes) {
      expect(() => parseChallenge(challenge(bad), 'POST', '/x'), bad).toThrow(`expiresAt "${bad}" is not a date-time`);
      expect(() => parseAuthSession(session(bad), ctx), bad).toThrow('expiresAt must be a date-time');
      expect(parseEnvelope(envelope(bad)), bad).toBe('envelope field "timestamp" must be a date-time string');
    }
  });

  it('svc trigger --set of a date', () => {
    const frozen = SCENARIOS.find((s) => s.name === 'card.frozen')!;
    expect(() => checkInputs(frozen, { set: ['customer.birthDate=2024-02-29'] })).not.toThrow();
    for (const bad of ['2025-02-29', '2025-04-31', '1990-1-02'])
      expect(caught(() => checkInputs(frozen, { set: [`customer.birthDate=${bad}`] }), UsageError).message).toContain(
        'must be a date YYYY-MM-DD',
      );
  });

  it('a resource command date flag (svc customers create --birth-date)', () => {
    const create = OPERATIONS.find((o) => o.noun === 'customers' && o.verb === 'create')!;
    const body = (birthDate: string) =>
      JSON.parse(buildRequest(create, { type: 'INDIVIDUAL', platformId: 'platform-1', birthDate }).body!) as {
        birthDate: string;
      };
    expect(body('2024-02-29').birthDate).toBe('2024-02-29');
    for (const bad of ['2025-02-29', '2025-13-01', '25-01-01'])
      expect(caught(() => body(bad), UsageError)).toMatchObject({
        input: '--birth-date',
        message: `--birth-date must be a date YYYY-MM-DD; got "${bad}".`,
      });
  });

  it('svc webhook replay --since: the looser forms a person types, on a real day', () => {
    expect(resolveSince('2024-02-29', 0)).toBe(Date.UTC(2024, 1, 29));
    expect(resolveSince('2024-02-29T23:30+01:00', 0)).toBe(Date.UTC(2024, 1, 29, 22, 30));
    for (const bad of [
      '2025-02-29',
      '2025-02-29T10:00Z',
      '2025-01-01T24:00Z',
      '2025-01-01T10:60Z',
      '2025-01-01t10:00z',
    ])
      expect(sinceProblem(bad), bad).toMatch(/^expected a span/);
  });
});
