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
import { readOtpTargetBundle, type ReadOtpTarget } from '../crypto/otp-target-bundle.js';
import { generateKeyPair } from '../crypto/keys.js';
import { createStamper } from '../crypto/stamp.js';
import { ApiError } from '../errors.js';
import { requireId } from '../validate.js';
import { parseAuthSession } from './auth-session.js';
import type { SessionKeys } from './store-login.js';
import type { SignerTrust, TrustDecision } from './signer-trust.js';

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
  /** The profile's pinned signer; undefined means trust on first use. Ignored when `trust` is given. */
  pinnedSigner?: string;
  /** Decides about the signer by base URL and token environment (signer-trust.ts), instead of one pin. */
  trust?: SignerTrust;
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
  /** The bundle signer (undefined: the sandbox sent an unsigned bundle); `newlyTrusted` when no pin existed. */
  signerPublicKey?: string;
  newlyTrusted: boolean;
  /** What `trust` decided about the signer (first use: pin it in that scope and say so; unsigned: warn). */
  decision: TrustDecision;
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

/** What the first challenge's bundle settled: later attempts must be signed by the same key. */
interface Held {
  decision?: TrustDecision;
  signer?: string;
}

async function checkedTarget(bundle: string, opts: OtpLoginOptions, held: Held): Promise<ReadOtpTarget> {
  if (held.decision !== undefined) {
    // A signer switching mid-login is refused; after an unsigned bundle (a sandbox token's) any self-consistent one will do.
    return held.signer === undefined ? readOtpTargetBundle(bundle) : verifyOtpTargetBundle(bundle, held.signer);
  }
  let target: ReadOtpTarget;
  if (opts.trust) {
    target = readOtpTargetBundle(bundle);
    held.decision = await opts.trust(target.signerPublicKey);
  } else {
    target = verifyOtpTargetBundle(bundle, opts.pinnedSigner);
    held.decision = opts.pinnedSigner === undefined ? { kind: 'first-use', scope: 'any' } : { kind: 'pinned' };
  }
  held.signer = target.signerPublicKey;
  return target;
}

export async function otpLogin(opts: OtpLoginOptions): Promise<OtpLoginResult> {
  const { client, credentialId, signal } = opts;
  const maxAttempts = opts.maxAttempts ?? 3;
  // Validated ids have no characters that need escaping; raw ids keep paths readable in a verbose log.
  const base = `/auth/credentials/${requireId('AuthMethod', credentialId, 'credential')}`;
  const held: Held = {};
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
    const target = await checkedTarget(bundle, opts, held);
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
        newlyTrusted: held.decision!.kind === 'first-use',
        decision: held.decision!,
        attempts: attempt,
      };
    } catch (error) {
      if (!isWrongOtp(error) || attempt >= maxAttempts) throw error;
      opts.onWrongCode?.(attempt, error);
    }
  }
}
