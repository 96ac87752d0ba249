/** The 401 code → next-step table: each kind of 401 must point at the fix that works for it. */
import { describe, expect, it } from 'vitest';
import { apiTokenCall, withAuthHint, withCredentialsHint } from '../../commands/auth-hints.js';
import { ApiError } from '../../src/errors.js';
import { withReauth } from '../../src/auth/reauth.js';
import { hintFor } from '../../commands/error-hints.js';
import { nextStepCommand } from '../../commands/next-step.js';

const cred = 'AuthMethod:6871107a-5887-408c-9777-5fe7870464f3';
const e401 = (code: string, reason?: string) => new ApiError({ status: 401, code, message: 'Unauthorized', reason });

describe('withAuthHint', () => {
  it.each([
    [
      'WALLET_SIGNATURE_INVALID',
      undefined,
      /does not recognise this session key.*svc otp verify --credential AuthMethod:/,
    ],
    ['WALLET_SIGNATURE_MISSING', undefined, /bug in svc/],
    ['WALLET_SIGNATURE_MALFORMED', undefined, /bug in svc/],
    ['WALLET_SIGNATURE_BODY_MISMATCH', undefined, /bug in svc/],
    ['REQUEST_ID_MISSING', undefined, /Request-Id.*bug in svc/],
    ['UNAUTHORIZED', 'Invalid API token id or client secret', /SERVICE_API_TOKEN_ID/],
    ['UNAUTHORIZED', 'Invalid OTP code', /code was not accepted/],
    [
      'UNAUTHORIZED',
      'Session Session:x has expired; reauthenticate',
      /no longer active.*svc otp verify --credential AuthMethod:/,
    ],
    ['UNAUTHORIZED', 'The challenge for this Request-Id has expired', /run the command again/],
  ])('%s (%s) → %s', (code, reason, hint) => {
    expect(withAuthHint(e401(code, reason), cred).hint).toMatch(hint);
  });

  it('names the credential when known and a placeholder otherwise', () => {
    expect(withAuthHint(e401('WALLET_SIGNATURE_INVALID'), cred).hint).toContain(cred);
    expect(withAuthHint(e401('WALLET_SIGNATURE_INVALID')).hint).toContain('<AuthMethod:id>');
  });

  it('leaves non-401 errors and hints chosen by the thrower alone', () => {
    const notFound = new ApiError({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'x' });
    expect(withAuthHint(notFound).hint).toBeUndefined();
    const chosen = new ApiError({ status: 401, code: 'UNAUTHORIZED', message: 'x', hint: 'keep me' });
    expect(withAuthHint(chosen).hint).toBe('keep me');
  });
});

describe('withCredentialsHint (calls made with the API token alone)', () => {
  it('points every 401 at the API credentials, whatever its reason', async () => {
    // A session-flavoured reason must not send the user to log in: no session key was involved.
    for (const reason of [undefined, 'Invalid API token id or client secret', 'Session expired']) {
      expect(withCredentialsHint(e401('UNAUTHORIZED', reason)).hint).toMatch(
        /SERVICE_API_TOKEN_ID.*SERVICE_ACCESS_TOKEN/,
      );
    }
    await expect(apiTokenCall(Promise.reject(e401('UNAUTHORIZED')))).rejects.toMatchObject({
      hint: expect.stringMatching(/API credentials/),
    });
  });

  it('leaves other errors and chosen hints alone', () => {
    expect(
      withCredentialsHint(new ApiError({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'x' })).hint,
    ).toBeUndefined();
    expect(
      withCredentialsHint(new ApiError({ status: 401, code: 'UNAUTHORIZED', message: 'x', hint: 'keep me' })).hint,
    ).toBe('keep me');
  });
});

describe('a 401 the core marks with its login (src/auth/reauth.ts)', () => {
  it('is shown with the login command of that credential; an unmarked 401 blames the API credentials', () => {
    const marked = withReauth(e401('WALLET_SIGNATURE_INVALID'), { credentialId: cred, type: 'PASSKEY' });
    expect(marked.next).toEqual({ action: 'log-in', credentialId: cred, type: 'PASSKEY' });
    expect(hintFor(marked)).toBe(
      `The service does not recognise this session key (the session was revoked, expired or refreshed elsewhere). Re-authenticate: svc login passkey --credential ${cred}`,
    );
    expect(nextStepCommand(marked.next!)).toBe(`svc login passkey --credential ${cred}`);
    expect(hintFor(e401('UNAUTHORIZED'))).toMatch(/^Check the API credentials/);
    // A 404 is not about the session: left unmarked.
    expect(withReauth(new ApiError({ status: 404, code: 'NOT_FOUND', message: 'x' })).next).toBeUndefined();
  });
});
