import { describe, expect, it } from 'vitest';
import { parseChallenge } from '../../../src/signing/index.js';
import { ApiError } from '../../../src/errors.js';
import { caught } from '../../helpers/caught.js';

const ok = { payloadToSign: '{"a":1}', requestId: 'Request:1', expiresAt: '2030-01-01T00:00:00Z', type: 'ACTIVITY_X' };

const failure = (body: unknown) => caught(() => parseChallenge(body, 'POST', '/auth/sessions/S/refresh'), ApiError);

describe('parseChallenge', () => {
  it('returns the challenge and its deadline', () => {
    const { challenge, expiresAtMs } = parseChallenge(ok, 'POST', '/r');
    expect(challenge).toEqual(ok);
    expect(expiresAtMs).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });

  it('keeps payloadToSign exactly as received', () => {
    const payload = ' {"b":2,  "a":1}\n';
    expect(parseChallenge({ ...ok, payloadToSign: payload }, 'POST', '/r').challenge.payloadToSign).toBe(payload);
  });

  it('names the field that is missing or not a string', () => {
    for (const field of ['payloadToSign', 'requestId', 'expiresAt'] as const) {
      for (const value of [undefined, 5, '']) {
        const err = failure({ ...ok, [field]: value });
        expect(err.code).toBe('INVALID_CHALLENGE');
        expect(err.message).toContain(field);
        expect(err.message).toContain('POST /auth/sessions/S/refresh');
      }
    }
  });

  it('rejects bodies that are not objects and unparseable dates', () => {
    expect(failure(undefined).message).toContain('JSON object');
    expect(failure('text').message).toContain('JSON object');
    expect(failure([ok]).message).toContain('JSON object');
    expect(failure({ ...ok, expiresAt: 'tomorrow' }).message).toContain('tomorrow');
  });
});
