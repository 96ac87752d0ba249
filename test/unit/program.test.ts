import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { exitCodeFor } from '../../commands/exit-codes.js';
import { commandWords } from '../../commands/argv-words.js';
import { GLOBAL_VALUE_FLAGS } from '../../commands/global-flags.js';
import { renderError } from '../../commands/render-error.js';
import { VERSION } from '../../commands/version.js';
import {
  ApiError,
  AuthRequiredError,
  InterruptedError,
  NetworkError,
  UsageError,
  VerificationError,
} from '../../src/errors.js';

describe('command root', () => {
  it('finds the command words after global flags and their values', () => {
    const words = (...args: string[]) => commandWords(args, GLOBAL_VALUE_FLAGS);
    expect(words('session', 'list')).toEqual(['session', 'list']);
    expect(words('--profile', 'keys', '--json', 'otp', 'verify')).toEqual(['otp', 'verify']);
    expect(words('--base-url', 'http://x', 'sandbox')).toEqual(['sandbox']);
    expect(words('--help')).toEqual([]);
    expect(words('help', 'session')).toEqual(['session']);
    expect(words('help')).toEqual(['help']);
  });

  it('reports the version written in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe('exit codes', () => {
  it('maps each typed error to the documented code', () => {
    expect(exitCodeFor(new UsageError('bad', { input: 'amount' }))).toBe(2);
    expect(exitCodeFor(new AuthRequiredError('no session'))).toBe(4);
    expect(exitCodeFor(new ApiError({ status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'x' }))).toBe(4);
    expect(exitCodeFor(new ApiError({ status: 404, code: 'QUOTE_NOT_FOUND', message: 'x' }))).toBe(1);
    expect(exitCodeFor(new NetworkError('refused', { url: 'http://127.0.0.1:1' }))).toBe(1);
    expect(exitCodeFor(new VerificationError('bad signature'))).toBe(1);
    expect(exitCodeFor(new InterruptedError())).toBe(130);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });
});

describe('error rendering', () => {
  const render = (error: unknown, json = false) => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (d: Buffer) => (text += d.toString()));
    renderError(error, { stderr, json, verbose: false, color: false });
    return text;
  };

  it('shows Ctrl-C at a prompt as an interruption (exit 130), not an error', () => {
    const abort = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    expect(render(abort)).toBe('Interrupted.\n');
    expect(exitCodeFor(abort)).toBe(130);
  });

  it('lists code, message, every field error with its constraint, and a next step', () => {
    const error = new ApiError({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Invalid input',
      details: {
        errors: [
          { field: 'clientPublicKey', constraint: { pattern: '^04' }, message: 'not a key' },
          { field: 'amount', message: 'must be positive' },
        ],
      },
    });
    const text = render(error);
    expect(text).toContain('INVALID_INPUT (HTTP 400): Invalid input');
    expect(text).toContain('- clientPublicKey: not a key [pattern: ^04]');
    expect(text).toContain('- amount: must be positive');
    expect(text).toMatch(/Hint: .+/);
    expect(JSON.parse(render(error, true)).error).toMatchObject({ type: 'api', status: 400, code: 'INVALID_INPUT' });
  });
});
