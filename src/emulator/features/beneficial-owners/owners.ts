/**
 * Beneficial owners of business customers. An owner's KYC stays UNVERIFIED until its business
 * resolves terminally (APPROVED or REJECTED); then the ending of personalInfo.lastName picks it
 * from the spec's beneficial-owner table (src/service): 001 PENDING, 002 REJECTED, other APPROVED.
 */
import { BENEFICIAL_OWNER_KYC, bySuffix, type KycStatus } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import { newId } from '../../kernel/ids.js';

export type PersonalInfo = Record<string, string | Record<string, string>> & { lastName: string };

export interface OwnerRec {
  id: string;
  customerId: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: PersonalInfo;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

export const owners = durableTable<OwnerRec>('beneficialOwners', {
  id: 'string',
  customerId: 'string',
  roles: 'array',
  ownershipPercentage: 'number',
  personalInfo: 'object',
  kycStatus: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});
const byCustomer = tableIndex<OwnerRec>((o) => o.customerId);

export const renderOwner = (o: OwnerRec): OwnerRec => o;

export function ownersOf(emu: EmulatorContext, customerId: string): OwnerRec[] {
  return emu.table(owners).where(byCustomer, customerId);
}

/** The business resolved terminally: every owner's KYC follows its lastName. */
export function resolveOwner(emu: EmulatorContext, owner: OwnerRec): void {
  const status = bySuffix(BENEFICIAL_OWNER_KYC, owner.personalInfo.lastName);
  if (owner.kycStatus === status) return;
  owner.kycStatus = status;
  owner.updatedAt = emu.iso();
  emu.table(owners).set(owner.id, owner);
}

export function insertOwner(
  emu: EmulatorContext,
  fields: Pick<OwnerRec, 'customerId' | 'roles' | 'ownershipPercentage' | 'personalInfo'>,
): OwnerRec {
  const now = emu.iso();
  const owner: OwnerRec = {
    id: newId('BeneficialOwner'),
    ...fields,
    kycStatus: 'UNVERIFIED',
    createdAt: now,
    updatedAt: now,
  };
  return emu.table(owners).set(owner.id, owner);
}
