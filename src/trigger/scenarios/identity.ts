/** Trigger scenarios of identity checks: individual KYC, business KYB and beneficial owners. */
import { BENEFICIAL_OWNER_KYC, BUSINESS_KYB, INDIVIDUAL_KYC, suffixRow } from '../../service/index.js';
import { named, otherEnding, type Scenario } from '../scenario.js';

export function individual(): Scenario[] {
  const row = (suffix?: string) =>
    suffix ? INDIVIDUAL_KYC.rows.find((r) => r.suffix === suffix)! : INDIVIDUAL_KYC.otherwise;
  const atCreation = (name: string, suffix: string | undefined, value: string): Scenario => ({
    name,
    area: 'kyc',
    magic: { field: 'fullName', value },
    expect: { kycStatus: row(suffix).outcome.kycStatus },
    spec: row(suffix).spec,
    recipe: 'individual-kyc',
    delayMs: 0,
  });
  const verification = (name: string, value: string, row: Pick<Scenario, 'expect' | 'spec'>): Scenario => ({
    name,
    area: 'kyc',
    magic: { field: 'fullName', value },
    ...row,
    recipe: 'individual-verification',
    delayMs: 0,
  });
  return [
    atCreation('kyc.pending', '001', named('Pat Pending', '001')),
    atCreation('kyc.rejected', '002', named('Rex Rejected', '002')),
    atCreation('kyc.unverified', '003', named('Uma Unverified', '003')),
    atCreation('kyc.approved', undefined, otherEnding(INDIVIDUAL_KYC, 'Ada Approved')),
    verification('kyc.review', named('Rita Review', '001'), {
      expect: { verificationStatus: 'PENDING_MANUAL_REVIEW', kycStatus: 'PENDING' },
      spec: row('001').spec,
    }),
    verification('kyc.poor-document', named('Paul Poordoc', '003'), {
      expect: { verificationStatus: 'RESOLVE_ERRORS', errorType: 'POOR_QUALITY_DOCUMENT' },
      spec: row('003').spec,
    }),
    verification('kyc.missing-data', named('Mia Missing', '001'), {
      expect: { verificationStatus: 'RESOLVE_ERRORS', errorType: 'MISSING_FIELD' },
      spec: 'anything missing returns verificationStatus RESOLVE_ERRORS with one entry per problem in errors',
    }),
  ];
}

export function business(): Scenario[] {
  const make = (name: string, value: string, expect: Record<string, string>): Scenario => ({
    name,
    area: 'kyb',
    magic: { field: BUSINESS_KYB.field, value },
    expect,
    spec: suffixRow(BUSINESS_KYB, value).spec,
    recipe: 'business-verification',
    delayMs: 0,
  });
  const owner = (name: string, value: string): Scenario => ({
    name,
    area: 'owner',
    magic: { field: BENEFICIAL_OWNER_KYC.field, value },
    expect: { kycStatus: suffixRow(BENEFICIAL_OWNER_KYC, value).outcome },
    spec: `${suffixRow(BENEFICIAL_OWNER_KYC, value).spec}, once the business resolves`,
    recipe: 'beneficial-owner',
    delayMs: 0,
  });
  return [
    make('kyb.approved', otherEnding(BUSINESS_KYB, 'REG-5550100'), {
      verificationStatus: 'APPROVED',
      kybStatus: 'APPROVED',
    }),
    make('kyb.rejected', 'REG-5550002', { verificationStatus: 'REJECTED', kybStatus: 'REJECTED' }),
    make('kyb.review', 'REG-5550003', { verificationStatus: 'RESOLVE_ERRORS' }),
    owner('owner.pending', 'Owner001'),
    owner('owner.rejected', 'Owner002'),
    owner('owner.approved', otherEnding(BENEFICIAL_OWNER_KYC, 'Owner')),
  ];
}
