/**
 * The two-step signed retry shared by every wallet-signed flow (refresh, OTP verify, session
 * revoke, …): call without signature → 202 challenge → sign payloadToSign as received → retry with
 * the same method, path and byte-identical body plus Service-Wallet-Signature and Request-Id →
 * while the answer is 200 {status:"PROCESSING"}, re-send that exact retry with backoff until it
 * settles or the challenge expires. The body is serialized once, so no retry can differ by a byte.
 */
import type { ApiClient, ApiResponse, RequestOptions } from '../http/client.js';
import { abortableSleep } from '../http/sleep.js';
import { ChallengeExpiredError, InterruptedError } from '../errors.js';
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
  now?: () => number;
  sleep?: (ms: number, s?: AbortSignal) => Promise<void>;
}

const DEFAULT_INITIAL_MS = 200;
const DEFAULT_MAX_MS = 2_000;

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
  await hooks?.onChallenge?.(challenge);
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
  let res = await client.request<unknown>(retry);
  let delay = opts.backoff?.initialMs ?? DEFAULT_INITIAL_MS;
  const maxDelay = opts.backoff?.maxMs ?? DEFAULT_MAX_MS;
  for (let attempt = 1; isProcessing(res); attempt++) {
    hooks?.onProcessing?.(attempt, res.body);
    const remaining = expiresAtMs - now();
    if (remaining <= 0) throw expired(challenge, attempt);
    try {
      await sleep(Math.min(delay, remaining), signal);
    } catch (err) {
      if (signal?.aborted)
        throw err instanceof InterruptedError ? err : new InterruptedError('Interrupted', { cause: err });
      throw err;
    }
    checkAbort();
    if (now() >= expiresAtMs) throw expired(challenge, attempt);
    delay = Math.min(delay * 2, maxDelay);
    res = await client.request<unknown>(retry);
  }
  hooks?.onSettled?.(res.status);
  return res as ApiResponse<T>;
}
