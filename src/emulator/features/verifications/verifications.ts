/**
 * Verification results. Every `POST /verifications` makes a new one (the resubmission of
 * fix-and-resubmit is a new verification) and emits `VERIFICATION.<verificationStatus>` with it.
 */
import type { VerificationStatus } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import { newId } from '../../kernel/ids.js';

/** The spec's verification error: resourceId, type, reason; field or acceptedDocumentTypes by type. */
export interface VerificationError {
  resourceId: string;
  type: string;
  field?: string;
  acceptedDocumentTypes?: string[];
  reason: string;
}

export interface VerificationRec {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export const verifications = durableTable<VerificationRec>('verifications', {
  id: 'string',
  customerId: 'string',
  verificationStatus: 'string',
  errors: 'array',
  createdAt: 'string',
  updatedAt: 'string',
});
const byCustomer = tableIndex<VerificationRec>((v) => v.customerId);

export const renderVerification = (v: VerificationRec): VerificationRec => v;

/** The customer's latest verification, if any. */
export function latestVerification(emu: EmulatorContext, customerId: string): VerificationRec | undefined {
  return emu.table(verifications).where(byCustomer, customerId).at(-1);
}

export function recordVerification(
  emu: EmulatorContext,
  customerId: string,
  verificationStatus: VerificationStatus,
  errors: VerificationError[],
): VerificationRec {
  const now = emu.iso();
  const v: VerificationRec = {
    id: newId('Verification'),
    customerId,
    verificationStatus,
    errors,
    createdAt: now,
    updatedAt: now,
  };
  emu.table(verifications).set(v.id, v);
  emu.outbox.emit(`VERIFICATION.${verificationStatus}`, renderVerification(v));
  return v;
}
