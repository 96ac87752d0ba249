import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultHint } from '../../commands/error-hints.js';
import { ApiError } from '../../src/errors.js';

describe('defaultHint', () => {
  it('a request the core says needs a wallet signature: the command that sends it signed', () => {
    // What the quote.* scenarios raise when executing answers 202 (src/trigger/recipes/money.ts).
    const error = new ApiError({
      status: 202,
      code: 'SIGNATURE_REQUIRED',
      message: 'Executing Quote:1 asks for a wallet signature',
      method: 'POST',
      path: '/quotes/Quote:1/execute',
    });
    expect(defaultHint(error)).toBe(
      'Run svc api POST /quotes/Quote:1/execute: it signs the 202 challenge with your session key.',
    );
  });

  it('an OTP credential the account has already: the list of that account, which shows its id', () => {
    const account = `InternalAccount:${randomUUID()}`;
    const error = new ApiError({
      status: 400,
      code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      message: `Internal account ${account} already has an EMAIL_OTP credential`,
    });
    expect(defaultHint(error)).toContain(`(svc credentials list --account ${account} shows its id)`);
  });
});
