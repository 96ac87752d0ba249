import { describe, expect, it } from 'vitest';
import { apiErrorFromResponse } from '../../../src/http/api-error.js';
import { ApiError } from '../../../src/errors.js';

const base = { method: 'POST', path: '/auth/sessions/S/refresh' };

describe('apiErrorFromResponse', () => {
  it('copies the service error body', () => {
    const err = apiErrorFromResponse({
      ...base,
      status: 401,
      contentType: 'application/json',
      text: JSON.stringify({
        status: 401,
        code: 'WALLET_SIGNATURE_INVALID',
        message: 'bad sig',
        reason: 'no match',
        details: { k: 1 },
      }),
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
      message: 'bad sig',
      reason: 'no match',
      details: { k: 1 },
      ...base,
    });
  });

  it('derives a code and message when the body is not an error object', () => {
    for (const text of ['', 'null', '[1,2]', '{"code":5}', '<html></html>']) {
      const err = apiErrorFromResponse({ ...base, status: 502, statusText: 'Bad Gateway', text });
      expect(err.code).toBe('HTTP_502');
      expect(err.message).toBe('POST /auth/sessions/S/refresh failed with HTTP 502 Bad Gateway');
      expect(err.details).toBeUndefined();
    }
  });

  it('uses the first line of a plain-text body as the message', () => {
    const err = apiErrorFromResponse({
      ...base,
      status: 503,
      contentType: 'text/plain; charset=utf-8',
      text: 'upstream down\nstack…',
    });
    expect(err.message).toBe('upstream down');
  });

  it('calls a bare 429 RATE_LIMITED', () => {
    expect(apiErrorFromResponse({ ...base, status: 429, text: '' }).code).toBe('RATE_LIMITED');
  });

  it('ignores a details value that is not an object', () => {
    const err = apiErrorFromResponse({
      ...base,
      status: 400,
      text: JSON.stringify({ code: 'INVALID_INPUT', message: 'm', details: 'x' }),
    });
    expect(err.details).toBeUndefined();
    expect(err.fieldErrors).toEqual([]);
  });
});
