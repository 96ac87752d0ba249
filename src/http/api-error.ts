/**
 * Turns a non-2xx answer into an ApiError. The service's error body is `{status, code, message,
 * details?}` plus `reason` on sandbox 401s; anything else (an HTML page from a proxy, an empty 502)
 * still becomes an ApiError with a code derived from the status, so callers handle one type.
 */
import { ApiError } from '../errors.js';

const SNIPPET_MAX = 200;

/** What is known about a failed exchange when the error is built. */
export interface ErrorContext {
  status: number;
  statusText?: string;
  contentType?: string;
  text: string;
  method: string;
  path: string;
  hint?: string;
}

function defaultCode(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  return `HTTP_${status}`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A short, single-line excerpt of a plain-text body; HTML pages would only add noise. */
function textSnippet(ctx: ErrorContext): string | undefined {
  if (!ctx.contentType?.startsWith('text/plain')) return undefined;
  const line = ctx.text.trim().split(/\r?\n/, 1)[0] ?? '';
  if (line === '') return undefined;
  return line.length > SNIPPET_MAX ? `${line.slice(0, SNIPPET_MAX)}…` : line;
}

/** The ApiError for a non-2xx answer: the service's fields when the body has them, derived ones otherwise. */
export function apiErrorFromResponse(ctx: ErrorContext): ApiError {
  const body = parseObject(ctx.text);
  const code = typeof body?.code === 'string' && body.code !== '' ? body.code : defaultCode(ctx.status);
  const message =
    typeof body?.message === 'string' && body.message !== ''
      ? body.message
      : (textSnippet(ctx) ??
        `${ctx.method} ${ctx.path} failed with HTTP ${ctx.status}${ctx.statusText ? ` ${ctx.statusText}` : ''}`);
  const details =
    body?.details !== null && typeof body?.details === 'object' && !Array.isArray(body.details)
      ? (body.details as Record<string, unknown>)
      : undefined;
  const reason = typeof body?.reason === 'string' ? body.reason : undefined;
  return new ApiError({
    status: ctx.status,
    code,
    message,
    details,
    reason,
    method: ctx.method,
    path: ctx.path,
    hint: ctx.hint,
  });
}
