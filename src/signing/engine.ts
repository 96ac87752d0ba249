/**
 * The two-step signed retry shared by every wallet-signed flow (refresh, OTP verify, session
 * revoke, …): call without signature → 202 challenge → sign payloadToSign as received → retry with
 * the same method, path and byte-identical body plus Service-Wallet-Signature and Request-Id →
 * while the answer is 200 {status:"PROCESSING"}, re-send that exact retry with backoff until it
 * settles, the challenge expires, the flow's time runs out or MAX_PROCESSING_RESENDS were sent. The
 * body is serialized once, so no retry can differ by a byte. The flow's time is the client's timeout
 * for all its steps together, not per request: a server that answers PROCESSING with an expiresAt
 * far ahead cannot keep the command re-sending (without this: 16 requests in 25 s under a 5 s timeout).
 */
import type { ApiClient, ApiResponse, RequestOptions } from '../http/client.js';
import { backoffMs } from '../backoff.js';
import { abortableSleep } from '../http/sleep.js';
import { ChallengeExpiredError, InterruptedError, StillProcessingError } from '../errors.js';
import { parseChallenge, type SignedRequestChallenge } from './challenge.js';

export type { SignedRequestChallenge } from './challenge.js';

/** Where a command shows what is signed, asks to go on (throw to cancel) and reports progress. */
export interface SignedRequestHooks {
  onChallenge?(challenge: SignedRequestChallenge): void | Promise<void>; // show what is signed / confirm (throw to cancel)
  onProcessing?(attempt: number, body: unknown): void;
  onSettled?(status: number): void;
}
/** One signed flow: the request, how to sign, and the test seams (clock, sleep, backoff). */
export interface SignedRequestOptions {
  method: string;
  path: string;
  body?: string | object;
  /** Extra headers sent on every step (e.g. Idempotency-Key on quote execution). */
  headers?: Record<string, string>;
  /** Signs payloadToSign → Service-Wallet-Signature value. Usually createStamper(privateKeyHex). */
  sign(payloadToSign: string): string | Promise<string>;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
  backoff?: { initialMs?: number; maxMs?: number };
  /** All steps together (time spent in onChallenge, a person confirming, not counted); default the client's timeoutMs. */
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number, s?: AbortSignal) => Promise<void>;
}

const DEFAULT_INITIAL_MS = 200;
const DEFAULT_MAX_MS = 2_000;
/** Re-sends of a PROCESSING retry before giving up: at the 2 s backoff ceiling, about 40 s of waiting. */
export const MAX_PROCESSING_RESENDS = 20;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10}s`;
}

function isProcessing(res: ApiResponse): boolean {
  const body = res.body as { status?: unknown } | undefined;
  return res.status === 200 && body !== null && typeof body === 'object' && body.status === 'PROCESSING';
}

function expired(challenge: SignedRequestChallenge, attempts: number): ChallengeExpiredError {
  return new ChallengeExpiredError(
    `The signing challenge expired at ${challenge.expiresAt} before the operation settled (${attempts} PROCESSING answer${attempts === 1 ? '' : 's'}); run the command again.`,
    { hint: 'The service keeps settling the operation on its own; running the command again gets a fresh challenge.' },
  );
}

function stillProcessing(attempts: number, why: string): StillProcessingError {
  return new StillProcessingError(
    `The operation was still PROCESSING after ${attempts} answer${attempts === 1 ? '' : 's'}: ${why}`,
    {
      reason: 'STILL_PROCESSING',
      hint: 'The service settles it on its own: check its state or try again later; a longer timeout waits longer.',
    },
  );
}

/** call → 202 challenge → sign → retry (same method, path, byte-identical body + Service-Wallet-Signature +
 *  Request-Id) → follow 200 {status:'PROCESSING'} with backoff until final 2xx or the challenge's expiresAt
 *  (ChallengeExpiredError). A first answer that is not 202 is returned as is. */
export async function signedRequest<T = unknown>(
  client: ApiClient,
  opts: SignedRequestOptions,
): Promise<ApiResponse<T>> {
  const { signal, hooks } = opts;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const budgetMs = opts.timeoutMs ?? client.timeoutMs;
  let deadline = budgetMs === undefined ? Number.POSITIVE_INFINITY : now() + budgetMs;
  /** What is left of the flow's time, for the next request (the client's own timeout still applies). */
  const remaining = () => (Number.isFinite(deadline) ? Math.max(1, deadline - now()) : undefined);
  const checkAbort = () => {
    if (signal?.aborted) throw new InterruptedError();
  };
  const body = opts.body === undefined || typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const initial: RequestOptions = { method: opts.method, path: opts.path, body, headers: opts.headers, signal };

  checkAbort();
  const first = await client.request<unknown>(initial);
  if (first.status !== 202) {
    hooks?.onSettled?.(first.status);
    return first as ApiResponse<T>;
  }

  const { challenge, expiresAtMs } = parseChallenge(first.body, opts.method.toUpperCase(), opts.path);
  const asked = now();
  await hooks?.onChallenge?.(challenge);
  deadline += now() - asked; // a person reading and confirming is not the service being slow
  checkAbort();
  const signature = await opts.sign(challenge.payloadToSign);
  // One frozen request object: every re-send below reuses these exact headers and body bytes.
  const retry: RequestOptions = Object.freeze({
    ...initial,
    headers: Object.freeze({
      ...opts.headers,
      'Service-Wallet-Signature': signature,
      'Request-Id': challenge.requestId,
    }),
  });

  checkAbort();
  let res = await client.request<unknown>({ ...retry, timeoutMs: remaining() });
  const backoff = {
    initialMs: opts.backoff?.initialMs ?? DEFAULT_INITIAL_MS,
    maxMs: opts.backoff?.maxMs ?? DEFAULT_MAX_MS,
  };
  for (let attempt = 1; isProcessing(res); attempt++) {
    hooks?.onProcessing?.(attempt, res.body);
    const left = expiresAtMs - now();
    if (left <= 0) throw expired(challenge, attempt);
    if (attempt > MAX_PROCESSING_RESENDS)
      throw stillProcessing(attempt, `it is re-sent at most ${MAX_PROCESSING_RESENDS} times`);
    const timeLeft = deadline - now();
    if (timeLeft <= 0) throw stillProcessing(attempt, `the time allowed (${seconds(budgetMs!)}, the timeout) ran out`);
    try {
      await sleep(Math.min(backoffMs(backoff, attempt - 1), left, timeLeft), signal);
    } catch (err) {
      if (signal?.aborted)
        throw err instanceof InterruptedError ? err : new InterruptedError('Interrupted', { cause: err });
      throw err;
    }
    checkAbort();
    if (now() >= expiresAtMs) throw expired(challenge, attempt);
    if (now() >= deadline)
      throw stillProcessing(attempt, `the time allowed (${seconds(budgetMs!)}, the timeout) ran out`);
    res = await client.request<unknown>({ ...retry, timeoutMs: remaining() });
  }
  hooks?.onSettled?.(res.status);
  return res as ApiResponse<T>;
}
