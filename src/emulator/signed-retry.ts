/**
 * The server side of the two-step signed retry shared by refresh, revoke and OTP verify:
 * the initial call stores a pending request and answers 202 with payloadToSign; the retry must
 * carry Service-Wallet-Signature and Request-Id, a stamp over that exact payload by an authorized
 * key, and the same bound body value. With --processing-retries N the first N accepted retries
 * get 200 PROCESSING and later re-sends must be byte-identical to the first; once settled, a
 * byte-identical re-send gets the same answer again (the spec calls the request idempotent).
 */
import { randomUUID } from 'node:crypto';
import { StampError, verifyStamp } from '../crypto/stamp.js';
import type { EmulatorContext } from './context.js';
import { signatureError, unauthorized } from './errors.js';
import type { Reply, Req } from './router.js';

/** The sandbox's legacy wallet-signature value, still accepted (spec "Versioning" 3). */
export const LEGACY_WALLET_SIGNATURE = 'sandbox-valid-signature';

export type PendingKind = 'refresh' | 'revoke' | 'verify';

export interface PendingRequest {
  requestId: string;
  kind: PendingKind;
  /** The session or credential the challenge was issued for. */
  resourceId: string;
  accountId: string;
  payloadToSign: string;
  expiresAtMs: number;
  /** Body value the retry must repeat exactly (clientPublicKey, encryptedOtpBundle; '' for none). */
  binding: string;
  bindingField: string;
  /** When set, only this compressed key may sign (OTP verify: the TEK); otherwise any active session key of the wallet. */
  requiredSigner?: string;
  processingLeft: number;
  firstRetryBody?: Buffer;
  outcome?: Promise<Reply>;
}

export interface ChallengeInit {
  kind: PendingKind;
  resourceId: string;
  accountId: string;
  organizationId: string;
  activityType: string;
  parameters: Record<string, unknown>;
  binding: string;
  bindingField: string;
  requiredSigner?: string;
}

/** Which step a request is: no signature headers at all means the initial call. */
export function isInitialCall(req: Req): boolean {
  return req.header('service-wallet-signature') === undefined && req.header('request-id') === undefined;
}

/** Stores a pending request; returns the SignedRequestChallenge body (202). */
export function createChallenge(emu: EmulatorContext, init: ChallengeInit): { payloadToSign: string; requestId: string; expiresAt: string } {
  const now = emu.now();
  const requestId = `Request:${randomUUID()}`;
  // Key order is the DESIGN.md payload format; clients sign these exact bytes.
  const payloadToSign = JSON.stringify({
    organizationId: init.organizationId,
    parameters: init.parameters,
    timestampMs: String(now),
    type: init.activityType,
  });
  const expiresAtMs = now + emu.opts.challengeTtlMs;
  emu.pending.set(requestId, {
    requestId,
    kind: init.kind,
    resourceId: init.resourceId,
    accountId: init.accountId,
    payloadToSign,
    expiresAtMs,
    binding: init.binding,
    bindingField: init.bindingField,
    ...(init.requiredSigner ? { requiredSigner: init.requiredSigner } : {}),
    processingLeft: emu.opts.processingRetries,
  });
  return { payloadToSign, requestId, expiresAt: emu.iso(expiresAtMs) };
}

export interface RetryInit {
  kind: PendingKind;
  resourceId: string;
  /** This retry's value of the bound field. */
  binding: string;
  /** Throws the 401 when the target is no longer usable (skipped once the request settled). */
  checkTarget(): void;
  settle(pending: PendingRequest): Promise<Reply>;
}

export async function completeSignedRetry(emu: EmulatorContext, req: Req, init: RetryInit): Promise<Reply> {
  const signature = req.header('service-wallet-signature');
  const requestId = req.header('request-id');
  if (!signature) throw signatureError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature is required on the signed retry (Request-Id was sent)');
  if (!requestId) throw signatureError('REQUEST_ID_MISSING', 'Request-Id is required on the signed retry (Service-Wallet-Signature was sent)');

  const pending = emu.pending.get(requestId);
  if (!pending || pending.kind !== init.kind || pending.resourceId !== init.resourceId) {
    throw unauthorized('Request-Id does not match a pending challenge for this request; call again without signature headers');
  }
  if (pending.expiresAtMs <= emu.now()) {
    emu.pending.delete(requestId);
    throw unauthorized('The challenge for this Request-Id has expired; call again without signature headers for a new one');
  }
  if (!pending.outcome) init.checkTarget();
  authorizeSignature(emu, pending, signature);

  if (pending.firstRetryBody) {
    if (!req.raw.equals(pending.firstRetryBody)) {
      throw signatureError('WALLET_SIGNATURE_BODY_MISMATCH', 'A re-sent signed retry must be byte-identical to the first signed retry');
    }
  } else if (init.binding !== pending.binding) {
    throw signatureError('WALLET_SIGNATURE_BODY_MISMATCH', `${pending.bindingField} differs from the one bound on the initial call`);
  }
  if (pending.outcome) return pending.outcome;

  pending.firstRetryBody = Buffer.from(req.raw);
  if (pending.processingLeft > 0) {
    pending.processingLeft -= 1;
    return {
      status: 200,
      body: { status: 'PROCESSING', message: 'The operation is still processing; re-send the same request to get the result.' },
    };
  }
  pending.outcome = init.settle(pending);
  return pending.outcome;
}

/** The stamp must verify over payloadToSign and be made by an authorized key. */
function authorizeSignature(emu: EmulatorContext, pending: PendingRequest, signature: string): void {
  if (signature === LEGACY_WALLET_SIGNATURE) return;
  let publicKey: string;
  try {
    publicKey = verifyStamp(signature, pending.payloadToSign).publicKey;
  } catch (error) {
    if (!(error instanceof StampError)) throw error;
    if (error.kind === 'malformed') throw signatureError('WALLET_SIGNATURE_MALFORMED', `Service-Wallet-Signature is malformed: ${error.message}`);
    throw signatureError('WALLET_SIGNATURE_INVALID', 'Service-Wallet-Signature does not verify over the pending payloadToSign');
  }
  if (pending.requiredSigner !== undefined) {
    if (publicKey !== pending.requiredSigner) {
      throw signatureError('WALLET_SIGNATURE_INVALID', 'Service-Wallet-Signature was not made by the key bound to this challenge');
    }
  } else if (!emu.keyHasActiveSession(publicKey, pending.accountId)) {
    throw signatureError('WALLET_SIGNATURE_INVALID', 'Service-Wallet-Signature key is not the key of an active session of this wallet');
  }
}
