/**
 * Typed errors shared by the core and the CLI. The core throws these; only
 * `commands/exit-codes.ts` turns them into process exit codes, so library users
 * can catch them by class without caring about the terminal.
 */
import type { LogIn } from './next-step.js';

/** A validator hint, as the spec's FieldConstraint. */
export interface FieldConstraint {
  format?: string;
  pattern?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
}

/** One offending field, as the spec's FieldError (inside 400 INVALID_INPUT details.errors[]). */
export interface FieldError {
  field: string;
  constraint?: FieldConstraint;
  message: string;
  /** The rule the value broke (`required`, `type`, `enum`, `format`, `pattern`, `maxLength`…), where known. */
  rule?: string;
}

/**
 * Base class: every error the tool raises on purpose. `hint` is the suggested next step, in the
 * core's words (no CLI syntax); `reason` a stable SCREAMING_SNAKE code for what went wrong, by which
 * the CLI can give a hint that names its commands and flags instead (commands/error-hints.ts).
 */
export class SvcError extends Error {
  hint?: string;
  readonly reason?: string;
  constructor(message: string, options?: { hint?: string; reason?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.hint) this.hint = options.hint;
    if (options?.reason) this.reason = options.reason;
  }
}

/**
 * What an input error is about, in the core's terms, never the CLI's: `input` is the option key a
 * caller uses for the value (`baseUrl`, `publicKey`: the key of a verb spec's flags or args, or of the
 * global flags), or a label the caller passed to the function that checked it; `reason` is a stable
 * SCREAMING_SNAKE code for what is wrong with it (`UNSUPPORTED_SCHEME`). The CLI turns `input` into
 * the flag's syntax (commands/input-syntax.ts), so text errors name the flag and JSON errors keep
 * printing it as `field`, the name users and scripts already read. One concept, one name: the
 * key is `input` everywhere in code; `field` is only the rendered JSON property.
 */
export interface InputErrorOptions {
  input?: string;
  reason?: string;
  hint?: string;
  cause?: unknown;
}

/**
 * One problem of an error that refuses several inputs at once (`input` then lists them all): its
 * `message` is about the value, said after the input's name, so the CLI can put each one's flag there.
 */
export interface InputProblem {
  input: string;
  reason?: string;
  message: string;
}

/** Bad input found before any request was sent (a flag, an argument, a file). Names the input. */
export class UsageError extends SvcError {
  readonly input?: string;
  /** Each refused input with why, when the error refuses several at once. */
  readonly problems?: readonly InputProblem[];
  constructor(message: string, options?: InputErrorOptions & { problems?: readonly InputProblem[] }) {
    super(message, options);
    if (options?.input) this.input = options.input;
    if (options?.problems?.length) this.problems = options.problems;
  }
}

/**
 * An option the service's answer showed to be wrong (an id it does not know, a resource in the wrong
 * state or of someone else). Names the input like a UsageError, but a request was sent, so it is a
 * failure (exit 1), not the exit 2 that promises nothing was sent.
 */
export class RejectedInputError extends SvcError {
  readonly input: string;
  constructor(message: string, options: InputErrorOptions & { input: string }) {
    super(message, options);
    this.input = options.input;
  }
}

/** The service (or emulator) answered with an error body `{status, code, message, details}`. */
export class ApiError extends SvcError {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  /** `reason` here is the server's, sandbox-only: the failed check behind a 401 UNAUTHORIZED. */
  readonly method?: string;
  readonly path?: string;
  /** Set on a 401 of a session-signed call (src/auth/reauth.ts): the session failed, logging in fixes it. */
  next?: LogIn;
  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    reason?: string;
    method?: string;
    path?: string;
    hint?: string;
  }) {
    super(init.message, { hint: init.hint, reason: init.reason });
    this.status = init.status;
    this.code = init.code;
    if (init.details !== undefined) this.details = init.details;
    if (init.method !== undefined) this.method = init.method;
    if (init.path !== undefined) this.path = init.path;
  }

  /** The FieldErrors of a 400 INVALID_INPUT, or an empty list. */
  get fieldErrors(): FieldError[] {
    const errors = (this.details as { errors?: unknown } | undefined)?.errors;
    return Array.isArray(errors) ? (errors as FieldError[]) : [];
  }
}

/** The request never got an HTTP answer (refused, reset, DNS, timeout). */
export class NetworkError extends SvcError {
  readonly url: string;
  readonly timedOut: boolean;
  constructor(
    message: string,
    options: { url: string; timedOut?: boolean; hint?: string; reason?: string; cause?: unknown },
  ) {
    super(message, options);
    this.url = options.url;
    this.timedOut = options.timedOut ?? false;
  }
}

/**
 * The server answered, but with more bytes than the client reads (ClientOptions.maxResponseBytes):
 * the client stopped reading rather than hold an endless or huge answer in memory.
 */
export class ResponseTooLargeError extends SvcError {
  readonly url: string;
  readonly limitBytes: number;
  constructor(message: string, options: { url: string; limitBytes: number; hint?: string }) {
    super(message, options);
    this.url = options.url;
    this.limitBytes = options.limitBytes;
  }
}

/**
 * Refused before any connection: credentials would cross the network in clear (plain http:// to a
 * host other than this machine). A usage problem: the fix is the base URL or an explicit opt-in.
 */
export class InsecureTransportError extends UsageError {
  /** The host the credentials would have gone to in clear. */
  readonly host: string;
  constructor(message: string, options: InputErrorOptions & { host: string }) {
    super(message, options);
    this.host = options.host;
  }
}

/** A signed operation still answered PROCESSING when the command's time or its re-sends ran out. */
export class StillProcessingError extends SvcError {}

/** No usable session: none stored, expired, or its key is not held here. */
export class AuthRequiredError extends SvcError {
  /** The login that fixes it, with the credential when known. */
  readonly next?: LogIn;
  constructor(message: string, options?: { hint?: string; reason?: string; next?: LogIn; cause?: unknown }) {
    super(message, options);
    if (options?.next) this.next = options.next;
  }
}

/** A signature, stamp or bundle failed a cryptographic check or could not be parsed. */
export class VerificationError extends SvcError {}

/** The user (or a signal) stopped the operation. */
export class InterruptedError extends SvcError {
  constructor(message = 'Interrupted', options?: { hint?: string; cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A command told to stop (Ctrl-C, SIGTERM) could not stop cleanly, e.g. the emulator's last save of
 * its --state file failed: shown as itself (what was lost), not as "Interrupted", and exit 1.
 */
export class StopFailedError extends SvcError {}

/** The user answered "no" to a confirmation: nothing was done (exit 1, not the 130 of Ctrl-C). */
export class CancelledError extends SvcError {}

/** A signed-retry challenge expired before the operation settled. */
export class ChallengeExpiredError extends SvcError {}
