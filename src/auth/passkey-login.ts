/**
 * Passkey login with a software passkey: a fresh compressed client key goes with the challenge (the
 * session key is sealed to it, or in the client-held-key model is it), the challenge's credentialId
 * must be our passkey's, the authenticator makes a real assertion, and verify (with the challenge's
 * requestId as Request-Id) answers the session. The passkey's new signature counter is returned for
 * the caller to store.
 */
import type { ApiClient } from '../http/client.js';
import { generateKeyPair } from '../crypto/keys.js';
import { ApiError } from '../errors.js';
import { requireId } from '../validate.js';
import { loginSession, type LoginResult } from './sealed-login.js';
import { assertPasskey, type SoftwarePasskey } from './software-passkey.js';

interface PasskeyChallenge {
  challenge?: unknown;
  credentialId?: unknown;
  requestId?: unknown;
}

export async function passkeyLogin(opts: {
  client: ApiClient;
  credentialId: string;
  passkey: SoftwarePasskey;
  signal?: AbortSignal;
}): Promise<LoginResult & { signCount: number }> {
  const base = `/auth/credentials/${requireId('AuthMethod', opts.credentialId, 'credentialId')}`;
  const client = generateKeyPair();
  const res = await opts.client.request<PasskeyChallenge>({
    method: 'POST',
    path: `${base}/challenge`,
    body: { clientPublicKey: client.publicKey },
    signal: opts.signal,
  });
  const { challenge, credentialId, requestId } = res.body ?? {};
  const bad = (message: string) =>
    new ApiError({ status: res.status, code: 'INVALID_RESPONSE', message, method: 'POST', path: `${base}/challenge` });
  if (typeof challenge !== 'string' || typeof requestId !== 'string')
    throw bad(`${opts.credentialId} did not answer a passkey challenge; is it a PASSKEY credential?`);
  if (credentialId !== opts.passkey.credentialId)
    throw bad(
      `${opts.credentialId} is registered with another WebAuthn credential (${String(credentialId)}) than the software passkey held here`,
    );

  const { assertion, signCount } = assertPasskey(opts.passkey, challenge);
  const path = `${base}/verify`;
  const verified = await opts.client.request({
    method: 'POST',
    path,
    body: { type: 'PASSKEY', assertion },
    headers: { 'Request-Id': requestId },
    signal: opts.signal,
  });
  return {
    ...(await loginSession(verified.body, client, { method: 'POST', path, status: verified.status })),
    signCount,
  };
}
