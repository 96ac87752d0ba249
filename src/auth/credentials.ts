/**
 * Credentials of an internal account (the description's §9): list, add and remove. Adding to an
 * account that already has a credential, and every removal, is the two-step signed retry signed by
 * a session key of that account (removal: of another credential); the first credential of an
 * account is made by one call. The signer is the caller's: a stored session's key.
 */
import type { ApiClient } from '../http/client.js';
import { signedRequest, type SignedRequestHooks } from '../signing/engine.js';
import { ApiError, AuthRequiredError } from '../errors.js';
import { requireId } from '../validate.js';

export type CredentialType = 'EMAIL_OTP' | 'SMS_OTP' | 'OAUTH' | 'PASSKEY';

/** AuthMethod (plus otpEncryptionTargetBundle on an OTP add). */
export interface AuthMethod {
  id: string;
  accountId: string;
  type: CredentialType;
  nickname: string;
  credentialId?: string;
  createdAt: string;
  updatedAt: string;
  otpEncryptionTargetBundle?: string;
}

/** Signs payloadToSign; undefined when no session key of the account is held (then a 202 is an AuthRequiredError). */
export type Signer = ((payloadToSign: string) => string) | undefined;

function noSigner(action: string): AuthRequiredError {
  return new AuthRequiredError(
    `${action} is signed by a session of the account, and no session key of that account is held here.`,
    { reason: 'NO_SIGNER', hint: 'Log in first, or pick a session of the account that is held here.' },
  );
}

function isAuthMethod(body: unknown): body is AuthMethod {
  const o = body as Record<string, unknown> | null;
  return (
    !!o &&
    typeof o === 'object' &&
    typeof o.id === 'string' &&
    typeof o.type === 'string' &&
    typeof o.accountId === 'string'
  );
}

export async function listCredentials(
  client: ApiClient,
  accountId: string,
  signal?: AbortSignal,
): Promise<AuthMethod[]> {
  const path = `/auth/credentials?accountId=${encodeURIComponent(requireId('InternalAccount', accountId, 'account'))}`;
  const res = await client.request<{ data?: unknown }>({ method: 'GET', path, signal });
  const data = res.body?.data;
  if (!Array.isArray(data) || !data.every(isAuthMethod)) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: 'GET /auth/credentials did not return {data: AuthMethod[]}',
      method: 'GET',
      path: '/auth/credentials',
    });
  }
  return data;
}

export interface AddCredentialOptions {
  client: ApiClient;
  /** The create body: `{type, accountId, …}` for its type. */
  body: Record<string, unknown>;
  sign: Signer;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
}

export async function addCredential(opts: AddCredentialOptions): Promise<AuthMethod> {
  const res = await signedRequest(opts.client, {
    method: 'POST',
    path: '/auth/credentials',
    body: opts.body,
    sign: (payload) => {
      if (!opts.sign) throw noSigner('Adding a credential to an account that has one');
      return opts.sign(payload);
    },
    hooks: opts.hooks,
    signal: opts.signal,
  });
  if (res.status !== 201 || !isAuthMethod(res.body)) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `POST /auth/credentials answered ${res.status}; expected 201 with the AuthMethod`,
      method: 'POST',
      path: '/auth/credentials',
    });
  }
  return res.body;
}

export async function removeCredential(opts: {
  client: ApiClient;
  credentialId: string;
  sign: Signer;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
}): Promise<void> {
  const path = `/auth/credentials/${requireId('AuthMethod', opts.credentialId, '<AuthMethod:id>')}`;
  const res = await signedRequest(opts.client, {
    method: 'DELETE',
    path,
    sign: (payload) => {
      if (!opts.sign) throw noSigner('Removing a credential');
      return opts.sign(payload);
    },
    hooks: opts.hooks,
    signal: opts.signal,
  });
  if (res.status !== 204) {
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `DELETE ${path} answered ${res.status}; expected 204`,
      method: 'DELETE',
      path,
    });
  }
}
