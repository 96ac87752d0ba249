/**
 * Where the OTP code comes from: `--code <otp>`, `--code -` (stdin, for scripts that keep the code
 * out of argv and shell history), or a masked prompt on a terminal. Everything that can be decided
 * without the network is decided here, so a script missing `--code` fails with exit 2 before the
 * challenge is requested (a challenge would send the user an email for nothing).
 */
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { UsageError } from '../../src/errors.js';

const OTP_PATTERN = /^\d{6}$/;

/** inquirer's validate: true, or the message shown under the prompt. */
export function validateOtp(value: string): true | string {
  return OTP_PATTERN.test(value.trim()) ? true : 'Enter the six digits of the code.';
}

export type CodeSource = { kind: 'given'; code: string } | { kind: 'stdin' } | { kind: 'prompt' };

/** Decides the source up front; throws UsageError naming --code when nothing can supply one. */
export function codeSource(code: string | undefined, deps: Deps): CodeSource {
  if (code === '-') return { kind: 'stdin' };
  if (code !== undefined) {
    if (!OTP_PATTERN.test(code.trim()))
      throw new UsageError('--code must be the six digits of the one-time code.', { input: '--code' });
    return { kind: 'given', code: code.trim() };
  }
  if (canPrompt(deps)) return { kind: 'prompt' };
  throw new UsageError('--code is required when svc cannot prompt (no terminal, CI or --no-input).', {
    input: '--code',
    hint: 'Pass --code <otp>, or --code - to read it from stdin.',
  });
}

/**
 * The code from stdin: its first line, trimmed. Called after the challenge, so a script can wait for
 * the email before it writes the code. On a terminal the prompt says what to type (a masked prompt
 * when svc may prompt). Reading stops at the first newline rather than at EOF, so a pipe that stays
 * open does not hang.
 */
export async function readCodeFromStdin(deps: Deps, prompt: string): Promise<string> {
  if (deps.io.stdinIsTTY && canPrompt(deps)) {
    return (await deps.prompter.password({ message: prompt, mask: true, validate: validateOtp })).trim();
  }
  if (deps.io.stdinIsTTY) deps.io.stderr.write(`${prompt} `);
  let text = '';
  for await (const chunk of deps.io.stdin) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (/[\r\n]/.test(text)) break;
  }
  const code = text.split(/\r?\n/, 1)[0]!.trim();
  if (!OTP_PATTERN.test(code)) throw new UsageError('--code - read no six-digit code from stdin.', { input: '--code' });
  return code;
}
