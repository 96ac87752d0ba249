/**
 * Email/SMS OTP login (spec "OTP flow"): challenge → check the target bundle's signer and signature
 * → fresh TEK → HPKE-encrypt {otp_code, public_key} to the bundle → signed verify with the TEK →
 * AuthSession. The TEK private key is then the session signing key.
 *
 * A wrong code (401 UNAUTHORIZED, reason "Invalid OTP code") is retried with a fresh challenge and a
 * fresh TEK: each bundle is good for one OTP issuance, so re-encrypting to the old one would fail.
 * Nothing here touches the terminal or the store; the caller supplies the code and pins the signer.
 */
import type { ApiClient } from '../http/client.js';
import { signedRequest, type SignedRequestHooks } from '../signing/engine.js';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../crypto/bundles.js';
import { generateKeyPair } from '../crypto/keys.js';
import { createStamper } from '../crypto/stamp.js';
import { ApiError } from '../errors.js';
import { requireId } from '../validate.js';
import { parseAuthSession } from './auth-session.js';
import type { SessionKeys } from './store-login.js';

/** What the challenge told us about the credential, so a prompt can say where the code went. */
export interface OtpChallengeInfo {
  attempt: number;
  maxAttempts: number;
  type: string;
  nickname?: string;
}

export interface OtpLoginOptions {
  client: ApiClient;
  credentialId: string;
  /** The profile's pinned signer; undefined means trust on first use. */
  pinnedSigner?: string;
  /** Called after each challenge (the code is sent then). Attempt counts from 1. */
  getCode(info: OtpChallengeInfo): Promise<string>;
  /** Default 3. A code from a flag cannot change, so callers pass 1 then. */
  maxAttempts?: number;
  /** Told about each wrong code before the next challenge (for a "try again" line). */
  onWrongCode?(attempt: number, error: ApiError): void;
  hooks?: SignedRequestHooks;
  signal?: AbortSignal;
}

/** The session, with the TEK as its key (store it; never print it), and how the login went. */
export interface OtpLoginResult extends SessionKeys {
  /** The bundle signer; `newlyTrusted` when no pin existed, so the caller pins it and says so. */
  signerPublicKey: string;
  newlyTrusted: boolean;
  attempts: number;
}

export function isWrongOtp(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    error.code === 'UNAUTHORIZED' &&
    /invalid otp code/i.test(error.reason ?? '')
  );
}

interface ChallengeBody {
  type?: unknown;
  nickname?: unknown;
  otpEncryptionTargetBundle?: unknown;
}

export async function otpLogin(opts: OtpLoginOptions): Promise<OtpLoginResult> {
  const { client, credentialId, signal } = opts;
  const maxAttempts = opts.maxAttempts ?? 3;
  // Validated ids have no characters that need escaping; raw ids keep paths readable in --verbose.
  const base = `/auth/credentials/${requireId('AuthMethod', credentialId, '--credential')}`;
  // The first signer seen is held for the later attempts too: a signer switching mid-login is refused.
  let pin = opts.pinnedSigner;
  for (let attempt = 1; ; attempt++) {
    const challenge = await client.request<ChallengeBody>({
      method: 'POST',
      path: `${base}/challenge`,
      body: {},
      signal,
    });
    const { type, nickname, otpEncryptionTargetBundle: bundle } = challenge.body ?? {};
    if (typeof bundle !== 'string') {
      throw new ApiError({
        status: challenge.status,
        code: 'INVALID_RESPONSE',
        message: `${credentialId} did not return an otpEncryptionTargetBundle; is it an EMAIL_OTP or SMS_OTP credential?`,
        method: 'POST',
        path: `${base}/challenge`,
      });
    }
    // Refuse before anything is encrypted: a wrong signer or signature throws VerificationError.
    const target = verifyOtpTargetBundle(bundle, pin);
    pin ??= target.signerPublicKey;
    const otpType = typeof type === 'string' ? type : 'EMAIL_OTP';
    const code = await opts.getCode({
      attempt,
      maxAttempts,
      type: otpType,
      nickname: typeof nickname === 'string' ? nickname : undefined,
    });

    const tek = generateKeyPair();
    const encryptedOtpBundle = await encryptOtpBundle(target.targetPublic, code, tek.publicKey);
    try {
      const res = await signedRequest(client, {
        method: 'POST',
        path: `${base}/verify`,
        body: { type: otpType, encryptedOtpBundle },
        sign: createStamper(tek.privateKey, tek.publicKey),
        hooks: opts.hooks,
        signal,
      });
      const session = parseAuthSession(res.body, { method: 'POST', path: `${base}/verify`, status: res.status });
      return {
        session,
        privateKey: tek.privateKey,
        publicKey: tek.publicKey,
        signerPublicKey: target.signerPublicKey,
        newlyTrusted: opts.pinnedSigner === undefined,
        attempts: attempt,
      };
    } catch (error) {
      if (!isWrongOtp(error) || attempt >= maxAttempts) throw error;
      opts.onWrongCode?.(attempt, error);
    }
  }
}
