/**
 * Next-step hints for the 401s of the signed auth flows (spec "401 codes"). Every 401 exits 4, but
 * the fix differs: a key the service no longer recognises needs a new login, while a missing or
 * malformed header is a client fault worth reporting. A command attaches the hint itself
 * (withAuthHint), or the renderer gives it to a 401 the core marked with its credential (src/auth/reauth.ts).
 */
import { ApiError } from '../src/errors.js';
import type { Credential } from '../src/auth/reauth.js';

/** The command that gets a fresh session when refresh is impossible, for the credential's type. */
export function reauthCommand(credentialId?: string, type?: string): string {
  const id = credentialId ?? '<AuthMethod:id>';
  if (type === 'PASSKEY') return `svc login passkey --credential ${id}`;
  if (type === 'OAUTH') return `svc login oauth --credential ${id} --token <jwt|->`;
  return `svc otp verify --credential ${id}`;
}

const CREDENTIALS_HINT =
  'Check the API credentials: SERVICE_API_TOKEN_ID and SERVICE_API_CLIENT_SECRET (or SERVICE_ACCESS_TOKEN), or the profile (svc config list).';
const CHALLENGE_HINT = 'The challenge expired or did not match; run the command again for a fresh one.';
const CLIENT_FAULT = 'this is a bug in svc: rerun with --verbose and report it';

/** code → hint; `reauth` is the re-authentication command for this session's credential. */
const HINTS: Record<string, (reauth: string) => string> = {
  WALLET_SIGNATURE_INVALID: (r) =>
    `The service does not recognise this session key (the session was revoked, expired or refreshed elsewhere). Re-authenticate: ${r}`,
  WALLET_SIGNATURE_MISSING: () => `The signed retry lacked Service-Wallet-Signature; ${CLIENT_FAULT}.`,
  WALLET_SIGNATURE_MALFORMED: () => `The service could not parse the Service-Wallet-Signature header; ${CLIENT_FAULT}.`,
  WALLET_SIGNATURE_BODY_MISMATCH: () => `The signed retry body differed from the challenged one; ${CLIENT_FAULT}.`,
  REQUEST_ID_MISSING: () => `The signed retry lacked Request-Id; ${CLIENT_FAULT}.`,
  INVALID_SIGNATURE: (r) =>
    `The signature was refused (wrong key, or the challenge expired). Run the command again; if it persists, re-authenticate: ${r}`,
};

/** Sandbox 401 UNAUTHORIZED carries `reason`; these patterns tell a dead session from bad API credentials. */
function unauthorizedHint(error: ApiError, reauth: string): string {
  const reason = (error.reason ?? error.message).toLowerCase();
  if (/api token|client secret|basic|credentials/.test(reason)) return CREDENTIALS_HINT;
  if (/\botp\b/.test(reason)) return `The code was not accepted. Run ${reauth} again to get a new code.`;
  // Request-Id first: "the challenge … has expired" is about the challenge, not the session.
  if (/request-id/.test(reason)) return CHALLENGE_HINT;
  if (/session|expired|not active|revoked/.test(reason))
    return `The session is no longer active. Re-authenticate: ${reauth}`;
  if (/challenge|pending|bundle/.test(reason)) return CHALLENGE_HINT;
  if (/signature|public ?key|stamp/.test(reason))
    return `The service refused the session signature. Re-authenticate: ${reauth}`;
  return CREDENTIALS_HINT;
}

/** The code-specific hint for a 401 of a session-signed call, re-authenticating with this credential. */
export function sessionHint(error: ApiError, credential: Credential = {}): string {
  const reauth = reauthCommand(credential.credentialId, credential.type);
  const pick = HINTS[error.code];
  if (pick) return pick(reauth);
  return error.code === 'UNAUTHORIZED' ? unauthorizedHint(error, reauth) : `Re-authenticate: ${reauth}`;
}

/** Sets a code-specific hint on a 401 ApiError (unless the thrower chose one) and returns the error. */
export function withAuthHint<E>(error: E, credentialId?: string): E {
  if (error instanceof ApiError && error.status === 401 && !error.hint)
    error.hint = sessionHint(error, { credentialId });
  return error;
}

/**
 * For calls made with the API token alone (session list, sandbox, cards): no session key is involved,
 * so a 401 is about the token and logging in again (the generic 401 hint) would not fix it.
 */
export function withCredentialsHint<E>(error: E): E {
  if (error instanceof ApiError && error.status === 401 && !error.hint) error.hint = CREDENTIALS_HINT;
  return error;
}

/** Awaits an API-token-only call, giving its 401 the credentials hint. */
export async function apiTokenCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw withCredentialsHint(error);
  }
}
