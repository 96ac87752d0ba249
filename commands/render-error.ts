/**
 * Renders any thrown error on stderr: code, message, every field error and the next step.
 * With --json it writes one JSON object `{"error":{…}}` to stderr instead, so stdout stays clean.
 */
import type { Writable } from 'node:stream';
import { colors } from './colors.js';
import {
  ApiError,
  AuthRequiredError,
  CancelledError,
  InterruptedError,
  NetworkError,
  RejectedInputError,
  SvcError,
  UsageError,
  VerificationError,
} from '../src/errors.js';
import { StoreError } from '../src/store/errors.js';
import { isPromptAbort } from './exit-codes.js';
import { hintFor } from './error-hints.js';
import { inputSyntax, namedMessage } from './input-syntax.js';
import type { VerbSpec } from './verb.js';

export interface RenderErrorOptions {
  stderr: Writable;
  json: boolean;
  verbose: boolean;
  /** Colour on stderr, already decided (commands/deps.ts decideColor: --no-color, NO_COLOR, FORCE_COLOR, TTY). */
  color: boolean;
  interrupted?: boolean;
  /** The running verb's spec: the input an error names is shown as its flag or argument (input-syntax.ts). */
  spec?: VerbSpec;
}

/**
 * The `type` of a --json error: one documented set (README "Output and exit codes"), never a class
 * name. `interrupted` is decided by renderError, `usage` also covers commander's parse errors
 * (main.ts), and `internal` is a bug in svc.
 */
export const ERROR_TYPES = [
  'api',
  'usage',
  'auth',
  'network',
  'verification',
  'store',
  'cancelled',
  'interrupted',
  'failure',
  'internal',
] as const;
type ErrorType = (typeof ERROR_TYPES)[number];

function svcErrorType(error: SvcError): ErrorType {
  if (error instanceof AuthRequiredError) return 'auth';
  if (error instanceof VerificationError) return 'verification';
  if (error instanceof CancelledError) return 'cancelled';
  return 'failure';
}

/** An input error's `field` (the flag's syntax, as before inputs had keys) and `reason`, for --json. */
function inputJSON(error: UsageError | RejectedInputError, spec: VerbSpec | undefined): Record<string, unknown> {
  const problems = error instanceof UsageError ? error.problems : undefined;
  return {
    message: error.message,
    field: error.input === undefined ? undefined : inputSyntax(error.input, spec),
    ...(error.reason ? { reason: error.reason } : {}),
    ...(problems && {
      problems: problems.map((p) => ({ field: inputSyntax(p.input, spec), reason: p.reason, message: p.message })),
    }),
    hint: hintFor(error),
  };
}

/**
 * The message with the input it is about in front (`--base-url: …`, `otp-signer: …`): the core
 * phrases it about the value, and only the CLI knows which flag carried it. A message that names it
 * already, or an error about several inputs (each named in its own line), is left alone.
 */
export function shownMessage(error: SvcError, spec?: VerbSpec): string {
  // Inputs refused at once: each problem after its own flag, one a line when there are several.
  const problems = error instanceof UsageError ? error.problems : undefined;
  const said = problems?.map((p) => namedMessage(inputSyntax(p.input, spec), p.message));
  if (said) return said.length === 1 ? said[0]! : `${said.length} inputs need fixing:\n  - ${said.join('\n  - ')}`;
  const input = error instanceof UsageError || error instanceof RejectedInputError ? error.input : undefined;
  if (input === undefined || input.includes(',')) return error.message;
  return namedMessage(inputSyntax(input, spec), error.message);
}

function errorToJSON(error: unknown, spec: VerbSpec | undefined): Record<string, unknown> {
  if (error instanceof ApiError) {
    return {
      type: 'api',
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.details ? { details: error.details } : {}),
      hint: hintFor(error),
    };
  }
  if (error instanceof UsageError) return { type: 'usage', ...inputJSON(error, spec) };
  if (error instanceof RejectedInputError) return { type: 'failure', ...inputJSON(error, spec) };
  if (error instanceof NetworkError)
    return {
      type: 'network',
      message: error.message,
      url: error.url,
      ...(error.timedOut ? { timedOut: true } : {}),
      hint: hintFor(error),
    };
  if (error instanceof StoreError)
    return { type: 'store', message: error.message, file: error.file, hint: hintFor(error) };
  if (error instanceof SvcError) return { type: svcErrorType(error), message: error.message, hint: hintFor(error) };
  return { type: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function renderError(error: unknown, options: RenderErrorOptions): void {
  const { stderr } = options;
  if (options.interrupted || isPromptAbort(error) || error instanceof InterruptedError) {
    stderr.write(
      options.json
        ? JSON.stringify({ error: { type: 'interrupted', message: 'Interrupted' } }) + '\n'
        : 'Interrupted.\n',
    );
    return;
  }
  if (options.json) {
    stderr.write(JSON.stringify({ error: errorToJSON(error, options.spec) }) + '\n');
    return;
  }
  const c = colors(options.color);
  const lines: string[] = [];
  if (error instanceof ApiError) {
    lines.push(`${c.red('Error:')} ${error.code} (HTTP ${error.status}): ${error.message}`);
    if (error.reason) lines.push(`  reason: ${error.reason}`);
    for (const fe of error.fieldErrors) {
      const constraint = fe.constraint
        ? ` [${Object.entries(fe.constraint)
            .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('|') : v}`)
            .join(', ')}]`
        : '';
      lines.push(`  - ${fe.field}: ${fe.message}${constraint}`);
    }
    const hint = hintFor(error);
    if (hint) lines.push(c.dim(`Hint: ${hint}`));
  } else if (error instanceof SvcError) {
    lines.push(`${c.red('Error:')} ${shownMessage(error, options.spec)}`);
    const hint = hintFor(error);
    if (hint) lines.push(c.dim(`Hint: ${hint}`));
  } else {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`${c.red('Error:')} ${message}`);
    if (options.verbose && error instanceof Error && error.stack) lines.push(c.dim(error.stack));
  }
  stderr.write(lines.join('\n') + '\n');
}
