/**
 * The identity rows of the spec's "Sandbox magic values": individual KYC by fullName, business KYB
 * by businessInfo.registrationNumber, beneficial-owner KYC by personalInfo.lastName.
 */
import type { SuffixTable } from './suffix-table.js';

export type KycStatus = 'PENDING' | 'REJECTED' | 'UNVERIFIED' | 'APPROVED';
export type KybStatus = 'UNVERIFIED' | 'PENDING' | 'REJECTED' | 'APPROVED';
export type VerificationStatus = 'PENDING_MANUAL_REVIEW' | 'RESOLVE_ERRORS' | 'REJECTED' | 'APPROVED';

/** Identity documents a verification asks for when none was uploaded (spec: acceptedDocumentTypes). */
export const ACCEPTED_IDENTITY_DOCUMENT_TYPES = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] as const;

/**
 * What `POST /verifications` does for an individual once every required item is present:
 * `PENDING_MANUAL_REVIEW` (kycStatus becomes PENDING), `POOR_QUALITY_DOCUMENT` (RESOLVE_ERRORS with
 * that error), or `REFUSED` (400).
 */
export type IndividualVerification = 'PENDING_MANUAL_REVIEW' | 'POOR_QUALITY_DOCUMENT' | 'REFUSED';

export const INDIVIDUAL_KYC: SuffixTable<{ kycStatus: KycStatus; verification: IndividualVerification }> = {
  name: 'Individual KYC',
  field: 'fullName',
  length: 3,
  rows: [
    {
      suffix: '001',
      outcome: { kycStatus: 'PENDING', verification: 'PENDING_MANUAL_REVIEW' },
      spec: 'kycStatus PENDING; with complete data and an identity document, POST /verifications gives PENDING_MANUAL_REVIEW',
    },
    {
      suffix: '002',
      outcome: { kycStatus: 'REJECTED', verification: 'REFUSED' },
      spec: 'kycStatus REJECTED; POST /verifications is 400',
    },
    {
      suffix: '003',
      outcome: { kycStatus: 'UNVERIFIED', verification: 'POOR_QUALITY_DOCUMENT' },
      spec: 'kycStatus UNVERIFIED; with complete data, RESOLVE_ERRORS with a POOR_QUALITY_DOCUMENT error',
    },
  ],
  otherwise: {
    outcome: { kycStatus: 'APPROVED', verification: 'REFUSED' },
    spec: 'kycStatus APPROVED; POST /verifications is 400',
  },
};

/**
 * Individual fields required before a verification can pass (spec: "Required for submission");
 * each missing one is a MISSING_FIELD error naming it. idType and identifier go together.
 */
export const INDIVIDUAL_REQUIRED_FIELDS = [
  'fullName',
  'birthDate',
  'nationality',
  'idType',
  'identifier',
  'address',
] as const;

/**
 * `COMPLETE_TO_RESOLVE`: RESOLVE_ERRORS until business information, business documents and at
 * least one beneficial owner are complete (no auto-decision). `REJECTED` / `APPROVED`: immediate,
 * skipping validation; further verifications are 400.
 */
export type BusinessVerification = 'COMPLETE_TO_RESOLVE' | 'REJECTED' | 'APPROVED';

export const BUSINESS_KYB: SuffixTable<BusinessVerification> = {
  name: 'Business KYB',
  field: 'businessInfo.registrationNumber',
  length: 3,
  rows: [
    { suffix: '001', outcome: 'COMPLETE_TO_RESOLVE', spec: 'same as 003' },
    {
      suffix: '002',
      outcome: 'REJECTED',
      spec: 'immediate kybStatus REJECTED (verificationStatus REJECTED), skipping validation',
    },
    {
      suffix: '003',
      outcome: 'COMPLETE_TO_RESOLVE',
      spec: 'no auto-decision; RESOLVE_ERRORS until business information, business documents and a beneficial owner are complete',
    },
  ],
  otherwise: {
    outcome: 'APPROVED',
    spec: 'immediate kybStatus APPROVED (verificationStatus APPROVED), skipping validation',
  },
};

/** Resolved when the business resolves terminally. */
export const BENEFICIAL_OWNER_KYC: SuffixTable<KycStatus> = {
  name: 'Beneficial owner KYC',
  field: 'personalInfo.lastName',
  length: 3,
  rows: [
    { suffix: '001', outcome: 'PENDING', spec: 'PENDING' },
    { suffix: '002', outcome: 'REJECTED', spec: 'REJECTED' },
  ],
  otherwise: { outcome: 'APPROVED', spec: 'APPROVED' },
};
