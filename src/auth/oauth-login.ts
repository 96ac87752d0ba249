/**
 * OAuth login (spec "Auth magic values", OAuth): one verify call with the identity provider's
 * token and the client key whose SHA-256 hex the token carries as `nonce`. A compressed client key
 * is the session key itself (client-held-key model); an uncompressed one (`legacy`, deprecated) gets
 * the session key sealed to it; a service that seals to a compressed key is understood too. The
 * client key is made before the token (the token must name it), so the caller owns it:
 * `newOauthClientKey()` here, kept between the two steps by the command.
 */
import type { ApiClient } from '../http/client.js';
import { generateKeyPair, type KeyPair } from '../crypto/keys.js';
import { UsageError } from '../errors.js';
import { requireId } from '../validate.js';
import { oidcNonce, tokenClaims } from './oidc-token.js';
import { loginSession, type LoginResult } from './sealed-login.js';

export interface OauthClientKey extends KeyPair {
  /** What the identity provider must put in the token's `nonce` claim. */
  nonce: string;
}

export function newOauthClientKey(opts: { legacy?: boolean } = {}): OauthClientKey {
  const key = generateKeyPair({ uncompressed: opts.legacy === true });
  return { ...key, nonce: oidcNonce(key.publicKey) };
}

/** Refuses, before sending, a token whose nonce is not this key's (the service would answer 401). */
export function checkTokenNonce(token: string, key: OauthClientKey, field: string): void {
  const { nonce } = tokenClaims(token, field);
  if (nonce !== key.nonce) {
    throw new UsageError(
      `The token's nonce ${nonce === undefined ? 'is missing' : `(${String(nonce)}) is not this login's`}: the identity provider must issue it with nonce ${key.nonce}.`,
      {
        input: field,
        reason: 'NONCE_MISMATCH',
        hint: 'The client key is kept: ask for a token with that nonce and log in with it, or use a sandbox token against a sandbox.',
      },
    );
  }
}

export async function oauthLogin(opts: {
  client: ApiClient;
  credentialId: string;
  token: string;
  key: OauthClientKey;
  signal?: AbortSignal;
}): Promise<LoginResult> {
  const path = `/auth/credentials/${requireId('AuthMethod', opts.credentialId, 'credentialId')}/verify`;
  const res = await opts.client.request({
    method: 'POST',
    path,
    body: { type: 'OAUTH', oidcToken: opts.token, clientPublicKey: opts.key.publicKey },
    signal: opts.signal,
  });
  return loginSession(res.body, opts.key, { method: 'POST', path, status: res.status });
}
