/** The 202 body of every two-step signed-retry endpoint (spec "SignedRequestChallenge"). */
import { ApiError } from '../errors.js';
import { parseDateTime } from '../date-time.js';

/** What to sign (exactly as received), the id to echo in Request-Id, and the deadline for the retry. */
export interface SignedRequestChallenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  type?: string;
}

/** A parsed challenge plus its deadline as epoch milliseconds. */
export interface ParsedChallenge {
  challenge: SignedRequestChallenge;
  expiresAtMs: number;
}

function invalid(path: string, method: string, what: string): ApiError {
  return new ApiError({
    status: 202,
    code: 'INVALID_CHALLENGE',
    message: `${method} ${path} answered 202 but the body is not a signed-request challenge: ${what}`,
    method,
    path,
    hint: 'Check that the base URL points at the payments service or the emulator.',
  });
}

/** Checks a 202 body is a challenge; an ApiError INVALID_CHALLENGE naming the request otherwise. */
export function parseChallenge(body: unknown, method: string, path: string): ParsedChallenge {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalid(path, method, 'expected a JSON object');
  const o = body as Record<string, unknown>;
  for (const field of ['payloadToSign', 'requestId', 'expiresAt'] as const) {
    if (typeof o[field] !== 'string' || o[field] === '')
      throw invalid(path, method, `${field} must be a non-empty string`);
  }
  const expiresAtMs = parseDateTime(o.expiresAt as string);
  if (expiresAtMs === undefined) throw invalid(path, method, `expiresAt "${String(o.expiresAt)}" is not a date-time`);
  const challenge: SignedRequestChallenge = {
    payloadToSign: o.payloadToSign as string,
    requestId: o.requestId as string,
    expiresAt: o.expiresAt as string,
  };
  if (typeof o.type === 'string') challenge.type = o.type;
  return { challenge, expiresAtMs };
}
