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
});
