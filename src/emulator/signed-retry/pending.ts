/** A challenge awaiting its signed retry: shared by the flow that issues it and the signature check that settles it. */
import type { Reply } from '../kernel/router.js';

/** Which signed endpoint a challenge was issued by; a retry must come back to the same kind. */
export type PendingKind = string;

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
  /** When set, sessions of this credential may not sign (credential revoke: another credential approves). */
  excludedSignerCredential?: string;
  /** When set, a session of any of these wallets may sign (a customer's contact change: any tied wallet). */
  signerAccountIds?: string[];
  processingLeft: number;
  firstRetryBody?: Buffer;
  outcome?: Promise<Reply>;
}
