/**
 * The server side of the two-step signed retry shared by refresh, revoke and OTP verify. A call
 * with neither Service-Wallet-Signature nor Request-Id is the initial call: the flow checks its
 * target, a pending request is stored and 202 answers with payloadToSign. Any other call is the
 * retry: it needs both headers, a stamp over that exact payload by an authorized key, and the same
 * bound body value. With --processing-retries N the first N accepted retries get 200 PROCESSING and
 * later re-sends must be byte-identical to the first; once settled, a byte-identical re-send gets
 * the same answer again (the spec calls the request idempotent).
 */
import type { EmulatorContext } from '../kernel/context.js';
import { signatureError, unauthorized } from '../kernel/errors.js';
import type { Reply, Req } from '../kernel/router.js';
import { memoryTable } from '../kernel/tables.js';
import { accounts, organizationOf } from '../features/accounts/accounts.js';
import { authorizeSignature } from './signature.js';
import type { PendingKind, PendingRequest } from './pending.js';
import { newId } from '../kernel/ids.js';

/** Challenges awaiting their signed retry, by requestId. */
// Stryker disable next-line StringLiteral: the name only keys the table among the others; any unique name serves.
export const pendingRequests = memoryTable<PendingRequest>('signedRequests');

/** What an initial call binds into its challenge. */
export interface ChallengeSpec {
  activityType: string;
  parameters: Record<string, unknown>;
  requiredSigner?: string;
  excludedSignerCredential?: string;
  signerAccountIds?: string[];
  /** Fields the 202 body carries before the SignedRequestChallenge ones (OTP verify: type). */
  lead?: Record<string, unknown>;
}

export interface SignedFlow {
  kind: PendingKind;
  resourceId: string;
  /** The wallet whose session keys may sign, and whose organizationId the payload names. */
  accountId: string;
  /** This call's value of the bound body field ('' when the body binds nothing). */
  binding: string;
  bindingField: string;
  /** Initial call: checks the target (throwing its 4xx) and says what to bind, or answers at once. */
  begin(): ChallengeSpec | Reply | Promise<ChallengeSpec | Reply>;
  /** Retry: throws the endpoint's error when the target is no longer usable (not asked once the request settled). */
  checkTarget(): void;
  settle(pending: PendingRequest): Promise<Reply>;
}

/** Runs whichever step this request is. */
export async function signedFlow(emu: EmulatorContext, req: Req, flow: SignedFlow): Promise<Reply> {
  if (req.header('service-wallet-signature') !== undefined || req.header('request-id') !== undefined) {
    return completeSignedRetry(emu, req, flow);
  }
  const spec = await flow.begin();
  if (!('activityType' in spec)) return spec;
  return { status: 202, body: { ...spec.lead, ...createChallenge(emu, flow, spec) } };
}

/** The payloadToSign of an activity of the wallet `accountId`, made now. */
export function activityPayload(
  emu: EmulatorContext,
  accountId: string,
  activityType: string,
  parameters: Record<string, unknown>,
): string {
  // Key order is the payload format of src/crypto/README.md "Refresh payload"; clients sign these exact bytes.
  return JSON.stringify({
    organizationId: organizationOf(emu.table(accounts).get(accountId)!),
    parameters,
    timestampMs: String(emu.now()),
    type: activityType,
  });
}

/**
 * Stores a pending request; returns the SignedRequestChallenge body. A multi-leg flow's `settle`
 * calls it to answer the next leg's 202 (delegated keys).
 */
export function createChallenge(
  emu: EmulatorContext,
  flow: SignedFlow,
  spec: ChallengeSpec,
): { payloadToSign: string; requestId: string; expiresAt: string } {
  const now = emu.now();
  const requestId = newId('Request');
  const payloadToSign = activityPayload(emu, flow.accountId, spec.activityType, spec.parameters);
  const expiresAtMs = now + emu.opts.challengeTtlMs;
  emu.table(pendingRequests).set(requestId, {
    requestId,
    kind: flow.kind,
    resourceId: flow.resourceId,
    accountId: flow.accountId,
    payloadToSign,
    expiresAtMs,
    binding: flow.binding,
    bindingField: flow.bindingField,
    ...(spec.requiredSigner ? { requiredSigner: spec.requiredSigner } : {}),
    ...(spec.excludedSignerCredential ? { excludedSignerCredential: spec.excludedSignerCredential } : {}),
    ...(spec.signerAccountIds ? { signerAccountIds: spec.signerAccountIds } : {}),
    processingLeft: emu.opts.processingRetries,
  });
  return { payloadToSign, requestId, expiresAt: emu.iso(expiresAtMs) };
}

async function completeSignedRetry(emu: EmulatorContext, req: Req, flow: SignedFlow): Promise<Reply> {
  const signature = req.header('service-wallet-signature');
  const requestId = req.header('request-id');
  if (!signature)
    throw signatureError(
      'WALLET_SIGNATURE_MISSING',
      'Service-Wallet-Signature is required on the signed retry (Request-Id was sent)',
    );
  if (!requestId)
    throw signatureError(
      'REQUEST_ID_MISSING',
      'Request-Id is required on the signed retry (Service-Wallet-Signature was sent)',
    );

  const pending = emu.table(pendingRequests).get(requestId);
  if (!pending || pending.kind !== flow.kind || pending.resourceId !== flow.resourceId) {
    throw unauthorized(
      'Request-Id does not match a pending challenge for this request; call again without signature headers',
    );
  }
  if (pending.expiresAtMs <= emu.now()) {
    emu.table(pendingRequests).delete(requestId);
    throw unauthorized(
      'The challenge for this Request-Id has expired; call again without signature headers for a new one',
    );
  }
  if (!pending.outcome) flow.checkTarget();
  authorizeSignature(emu, pending, signature);

  if (pending.firstRetryBody) {
    if (!req.raw.equals(pending.firstRetryBody)) {
      throw signatureError(
        'WALLET_SIGNATURE_BODY_MISMATCH',
        'A re-sent signed retry must be byte-identical to the first signed retry',
      );
    }
  } else if (flow.binding !== pending.binding) {
    throw signatureError(
      'WALLET_SIGNATURE_BODY_MISMATCH',
      `${pending.bindingField} differs from the one bound on the initial call`,
    );
  }
  if (pending.outcome) return pending.outcome;

  pending.firstRetryBody = Buffer.from(req.raw);
  if (pending.processingLeft > 0) {
    pending.processingLeft -= 1;
    return {
      status: 200,
      body: {
        status: 'PROCESSING',
        message: 'The operation is still processing; re-send the same request to get the result.',
      },
    };
  }
  pending.outcome = flow.settle(pending);
  return pending.outcome;
}
