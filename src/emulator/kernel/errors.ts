/**
 * Error answers of the emulator, in the spec's shape `{status, code, message, details?}` plus
 * `reason` on sandbox 401s. Handlers throw HttpError; the server turns it into the body, so no
 * handler builds an error body by hand and every error has the same shape.
 */
import type { FieldError } from '../../errors.js';

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  reason?: string;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  readonly reason?: string;
  readonly headers?: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    extra: { details?: Record<string, unknown>; reason?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    if (extra.details !== undefined) this.details = extra.details;
    if (extra.reason !== undefined) this.reason = extra.reason;
    if (extra.headers !== undefined) this.headers = extra.headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { status: this.status, code: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    if (this.reason !== undefined) body.reason = this.reason;
    return body;
  }
}

/** 400 INVALID_INPUT listing every offending field (spec: FieldError in details.errors[]). */
export function invalidInput(errors: FieldError[], message?: string): HttpError {
  const fields = errors.map((e) => e.field).join(', ');
  return new HttpError(400, 'INVALID_INPUT', message ?? `Invalid request: ${fields}`, { details: { errors } });
}

export function badRequest(code: string, message: string, details?: Record<string, unknown>): HttpError {
  return new HttpError(400, code, message, details ? { details } : {});
}

/** Sandbox 401 UNAUTHORIZED: `reason` names the failed check (spec "Authentication" 8). */
export function unauthorized(reason: string, message = 'Unauthorized'): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', message, { reason });
}

/** The specific wallet-signature 401s (WALLET_SIGNATURE_*, REQUEST_ID_MISSING). */
export function signatureError(code: string, message: string): HttpError {
  return new HttpError(401, code, message, { reason: message });
}

/**
 * 404 for a missing resource. The spec's 404 code enum has no code for sessions, cards, accounts
 * or credentials; REFERENCE_NOT_FOUND is the enum's generic member and the message names the thing.
 */
export function notFound(what: string, id: string, code = 'REFERENCE_NOT_FOUND'): HttpError {
  return new HttpError(404, code, `${what} ${id} not found`);
}

export function conflict(code: string, message: string): HttpError {
  return new HttpError(409, code, message);
}
