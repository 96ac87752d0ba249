/** The input an error names, shown as what the user typed for it (commands/input-syntax.ts). */
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { inputSyntax } from '../../commands/input-syntax.js';
import { renderError } from '../../commands/render-error.js';
import { api } from '../../commands/api/verbs.js';
import { UsageError } from '../../src/errors.js';

describe('input → flag or argument syntax', () => {
  it("names the verb's own flag, its argument, a global flag, and leaves anything else as it is", () => {
    expect(inputSyntax('idempotencyKey', api)).toBe('--idempotency-key');
    expect(inputSyntax('header', api)).toBe('--header');
    expect(inputSyntax('path', api)).toBe('<path>');
    expect(inputSyntax('baseUrl', api)).toBe('--base-url');
    expect(inputSyntax('yes', api)).toBe('--yes');
    expect(inputSyntax('allowInsecureHttp', undefined)).toBe('--allow-insecure-http');
    // The verb's own flag wins over a global one of the same key (api --input, not --no-input).
    expect(inputSyntax('input', api)).toBe('--input');
    expect(inputSyntax('input', undefined)).toBe('--no-input');
    expect(inputSyntax('route file', api)).toBe('route file');
    expect(inputSyntax('--to', api)).toBe('--to');
    expect(inputSyntax('toString', api)).toBe('toString');
  });

  it('maps each input of a list, keeping its separators', () => {
    expect(inputSyntax('query, baseUrl', api)).toBe('--query, --base-url');
    expect(inputSyntax('session,--show-payload', api)).toBe('--session,--show-payload');
  });
});

describe('an input error as rendered', () => {
  const render = (error: unknown, json: boolean) => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (d: Buffer) => (text += d.toString()));
    renderError(error, { stderr, json, verbose: false, color: false, spec: api });
    return text;
  };
  const error = new UsageError('The idempotency key must be a single line.', {
    input: 'idempotencyKey',
    reason: 'NOT_ONE_LINE',
  });

  it('text puts the flag in front; a message that names it already is left alone', () => {
    expect(render(error, false)).toBe('Error: --idempotency-key: The idempotency key must be a single line.\n');
    const named = new UsageError('--query takes key=value', { input: 'query' });
    expect(render(named, false)).toBe('Error: --query takes key=value\n');
    expect(render(new UsageError('not a key', { input: 'otp-signer' }), false)).toBe('Error: otp-signer: not a key\n');
    expect(render(new UsageError('set SERVICE_X', { input: 'SERVICE_X' }), false)).toBe('Error: set SERVICE_X\n');
    // A caller that spelled the flag itself (commands/) gets it in front too when the message lacks it.
    expect(render(new UsageError('Expected a Session id', { input: '--session' }), false)).toBe(
      'Error: --session: Expected a Session id\n',
    );
  });

  it('--json keeps `field` as the flag syntax and adds the reason', () => {
    expect(JSON.parse(render(error, true))).toEqual({
      error: {
        type: 'usage',
        message: 'The idempotency key must be a single line.',
        field: '--idempotency-key',
        reason: 'NOT_ONE_LINE',
      },
    });
  });
});
