/**
 * One raw API exchange: any method and path under the versioned base URL, with the caller's
 * headers, query and exact body bytes. A 202 SignedRequestChallenge is answered by the signed-retry
 * engine (sign payloadToSign as received, retry with Service-Wallet-Signature and Request-Id, follow
 * 200 PROCESSING), unless signing is off, in which case the 202 is the answer.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../http/types.js';
import { signedRequest, type SignedRequestHooks } from '../signing/engine.js';
import { createStamper } from '../crypto/stamp.js';
import type { StoredSession } from '../store/types.js';
import { withReauth } from '../auth/reauth.js';
import { UsageError } from '../errors.js';
import { API_VERSION } from '../http/base-url.js';
import { queryString } from './fields.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** The method upper-cased; a UsageError naming the method when it is not an HTTP method. */
export function requireMethod(value: string): string {
  const method = value.toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`The method must be one of ${METHODS.join(', ')}; got "${value}".`, {
      input: 'method',
      reason: 'UNKNOWN_METHOD',
    });
  }
  return method;
}

/**
 * The path relative to the versioned base URL: a leading `/` is added, a pasted `/2025-10-13`
 * prefix is dropped (the base URL has it), and a full URL is refused (credentials go only to the
 * configured base URL).
 */
export function normalizePath(value: string, query: readonly [string, string][] = []): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(`The path must be relative to the base URL (like /customers), not a full URL: "${value}".`, {
      input: 'path',
      reason: 'FULL_URL',
      hint: 'To call another service, change the base URL.',
    });
  }
  let path = value.startsWith('/') ? value : `/${value}`;
  if (path === `/${API_VERSION}` || path.startsWith(`/${API_VERSION}/`) || path.startsWith(`/${API_VERSION}?`)) {
    path = path.slice(API_VERSION.length + 1) || '/';
  }
  if (/\s/.test(path))
    throw new UsageError(`The path must not contain spaces; got "${value}".`, { input: 'path', reason: 'HAS_SPACES' });
  const extra = queryString(query);
  if (extra === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${extra}`;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `-H 'Name: value'` lines as a header map; every malformed one named at once. */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const bad: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!HEADER_NAME.test(name)) bad.push(`"${line}"`);
    else headers[name] = line.slice(colon + 1).trim();
  }
  if (bad.length > 0)
    throw new UsageError(`A header is "Name: value"; got ${bad.join(', ')}.`, {
      input: 'header',
      reason: 'NOT_A_HEADER',
    });
  return headers;
}

/** Query `k=v` pairs; a UsageError naming every one without "=". */
export function parseQuery(items: readonly string[]): [string, string][] {
  const bad = items.filter((item) => item.indexOf('=') <= 0);
  if (bad.length > 0)
    throw new UsageError(`A query parameter is key=value; got ${bad.map((b) => `"${b}"`).join(', ')}.`, {
      input: 'query',
      reason: 'NOT_KEY_VALUE',
    });
  return items.map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]);
}

/** An idempotency key of `auto` makes a fresh UUID; any other value is sent as given. */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return randomUUID();
  if (value.trim() === '' || /[\r\n]/.test(value))
    throw new UsageError('The idempotency key must be a non-empty single-line value (or "auto").', {
      input: 'idempotencyKey',
      reason: 'NOT_ONE_LINE',
    });
  return value;
}

export interface ApiCallOptions {
  method: string;
  /** Already normalized (normalizePath), query included. */
  path: string;
  /** Exact bytes to send, or none. */
  body?: string;
  headers?: Record<string, string>;
  /**
   * The session whose key answers a 202 challenge, looked up only when a challenge arrives; false
   * returns the 202 as is (signing turned off).
   */
  signer: false | (() => StoredSession);
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
  now?: () => number;
}

export interface ApiCallResult {
  response: ApiResponse;
  /** The session that signed, when a challenge was answered. */
  signedWith?: string;
}

/** The exchange: plain, or call → 202 → signed retry → settled answer. */
export async function apiCall(client: ApiClient, opts: ApiCallOptions): Promise<ApiCallResult> {
  const { method, path, body, headers, signal } = opts;
  if (opts.signer === false) return { response: await client.request({ method, path, body, headers, signal }) };
  const pickSigner = opts.signer;
  let signer: StoredSession | undefined;
  try {
    const response = await signedRequest(client, {
      method,
      path,
      body,
      headers,
      signal,
      now: opts.now,
      hooks: opts.hooks,
      sign: (payload) => createStamper((signer = pickSigner()).privateKey)(payload),
    });
    return { response, ...(signer ? { signedWith: signer.id } : {}) };
  } catch (error) {
    // Only a signed retry's 401 is about the session; before that it is about the API token.
    throw signer ? withReauth(error, { credentialId: signer.credentialId }) : error;
  }
}
