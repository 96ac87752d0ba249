/**
 * The sandbox's decision for one submission, from the spec's tables (src/service):
 * - individual: anything missing → RESOLVE_ERRORS; otherwise the row its fullName picked at
 *   creation: 001 PENDING_MANUAL_REVIEW (kycStatus PENDING), 003 RESOLVE_ERRORS with
 *   POOR_QUALITY_DOCUMENT on its latest identity document. (002 and other: 400 before this.)
 * - business, by businessInfo.registrationNumber: 002 REJECTED and other APPROVED at once,
 *   skipping validation, and its owners' KYC resolves; 001/003 RESOLVE_ERRORS until complete,
 *   then PENDING_MANUAL_REVIEW (kybStatus PENDING) with no automatic decision after it.
 */
import {
  BUSINESS_KYB,
  INDIVIDUAL_KYC,
  bySuffix,
  type KycStatus,
  type VerificationStatus,
} from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { CustomerRec } from '../customers/customers.js';
import { businessProblems, individualProblems, latestIdentityDocument } from './checks.js';
import type { VerificationError } from './verifications.js';

export interface Decision {
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  /** The customer's KYC/KYB status this submission puts it in, if it moves it. */
  customerStatus?: KycStatus;
  /** The business resolved terminally: its owners' KYC follows their lastName. */
  resolvesOwners?: boolean;
}

export function decideIndividual(emu: EmulatorContext, c: CustomerRec): Decision {
  const problems = individualProblems(emu, c);
  if (problems.length > 0) return { verificationStatus: 'RESOLVE_ERRORS', errors: problems };
  const row = bySuffix(INDIVIDUAL_KYC, c.kycDecidedBy ?? c.fullName!).verification;
  if (row === 'POOR_QUALITY_DOCUMENT') {
    const documentId = latestIdentityDocument(emu, c)!;
    return {
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [
        {
          resourceId: documentId,
          type: 'POOR_QUALITY_DOCUMENT',
          reason: `The identity document ${documentId} is of too poor quality to read`,
        },
      ],
    };
  }
  return { verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], customerStatus: 'PENDING' };
}

export function decideBusiness(emu: EmulatorContext, c: CustomerRec): Decision {
  const registrationNumber = c.businessInfo?.registrationNumber;
  const row = bySuffix(BUSINESS_KYB, typeof registrationNumber === 'string' ? registrationNumber : '');
  if (row === 'REJECTED' || row === 'APPROVED') {
    return { verificationStatus: row, errors: [], customerStatus: row, resolvesOwners: true };
  }
  const problems = businessProblems(emu, c);
  if (problems.length > 0) return { verificationStatus: 'RESOLVE_ERRORS', errors: problems };
  return { verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], customerStatus: 'PENDING' };
}
