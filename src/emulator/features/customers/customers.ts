/**
 * Customers. Each new customer gets embedded-wallet internal accounts in USD (listed first) and
 * EUR, and a UMA address on the emulator's domain (or the one it asked for). An individual's KYC
 * row of the spec's table (src/service) is decided by its first fullName, normally at creation;
 * business customers start UNVERIFIED and are decided by their verifications.
 */
import { INDIVIDUAL_KYC, bySuffix, type KybStatus, type KycStatus } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, invalidInput, notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import { createAccount } from '../accounts/accounts.js';
import { ownersOf, renderOwner } from '../beneficial-owners/owners.js';
import { newId } from '../../kernel/ids.js';

export const UMA_DOMAIN = 'emulator.svc.test';

export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;

export type BusinessInfo = Record<string, string | string[]>;

export interface CustomerRec {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  idType?: string;
  /** Write-only (never rendered): the SSN or ITIN. */
  identifier?: string;
  address?: Record<string, string>;
  businessInfo?: BusinessInfo;
  kycStatus?: KycStatus;
  kybStatus?: KybStatus;
  /** Not rendered: the fullName whose ending picked this individual's row of the KYC table. */
  kycDecidedBy?: string;
  umaAddress: string;
  platformCustomerId: string;
  /** ISO 3166-1 alpha-2: the customer's regulatory jurisdiction; an SCA region (src/service) brings contact verification and SCA. */
  region?: string;
  /** The description's ContactVerification: present only when the region requires it (contact-verification/). */
  contactVerification?: { email?: 'PENDING' | 'VERIFIED'; phone?: 'PENDING' | 'VERIFIED' };
  /** Set by DELETE: the service deletes softly, the record stays readable with this flag. */
  isDeleted?: boolean;
  createdAt: string;
  updatedAt: string;
}

export const customers = durableTable<CustomerRec>('customers', {
  id: 'string',
  customerType: 'string',
  fullName: 'string?',
  birthDate: 'string?',
  nationality: 'string?',
  email: 'string?',
  phoneNumber: 'string?',
  idType: 'string?',
  identifier: 'string?',
  address: 'object?',
  businessInfo: 'object?',
  kycStatus: 'string?',
  kybStatus: 'string?',
  kycDecidedBy: 'string?',
  umaAddress: 'string',
  platformCustomerId: 'string',
  region: 'string?',
  contactVerification: 'object?',
  isDeleted: 'boolean?',
  createdAt: 'string',
  updatedAt: 'string',
});
/** Only an active customer holds its platformCustomerId (the description); a deleted one's is free again. */
export const byPlatformCustomerId = tableIndex<CustomerRec>((c) => (c.isDeleted ? undefined : c.platformCustomerId));
/** UMA addresses compare without case. */
const byUmaAddress = tableIndex<CustomerRec>((c) => c.umaAddress.toLowerCase());

/** Fields a client never gets back. */
const HIDDEN = new Set(['identifier', 'kycDecidedBy']);

/** The description's CustomerOneOf; a BusinessCustomer lists its beneficial owners (made with POST /beneficial-owners). */
export function renderCustomer(emu: EmulatorContext, c: CustomerRec): Record<string, unknown> {
  const shown = Object.fromEntries(Object.entries(c).filter(([k, v]) => v !== undefined && !HIDDEN.has(k)));
  if (c.customerType === 'BUSINESS') shown.beneficialOwners = ownersOf(emu, c.id).map(renderOwner);
  return shown;
}

/** The customer, or 404 USER_NOT_FOUND (the spec's code for customers). */
export function customerOr404(emu: EmulatorContext, id: string): CustomerRec {
  const customer = emu.table(customers).get(id);
  if (!customer) throw notFound('Customer', id, 'USER_NOT_FOUND');
  return customer;
}

/**
 * The customer, for a request that changes it or adds to it: 404 unknown; once deleted, the refusal
 * the operation declares (the description declares 410 CUSTOMER_DELETED for DELETE only): 409
 * CONFLICT where it declares a 409, else 400 INVALID_INPUT naming the field that holds the id.
 */
export function liveCustomerOr4xx(
  emu: EmulatorContext,
  id: string,
  deleted: 'conflict' | { field: string },
): CustomerRec {
  const customer = customerOr404(emu, id);
  if (!customer.isDeleted) return customer;
  const message = `Customer ${id} was deleted; it can no longer change`;
  if (deleted === 'conflict') throw new HttpError(409, 'CONFLICT', message);
  throw invalidInput([{ field: deleted.field, message }]);
}

export function findCustomerByUma(emu: EmulatorContext, address: string): CustomerRec | undefined {
  return emu.table(customers).first(byUmaAddress, address.toLowerCase());
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.|\.$/g, '')
      .slice(0, 40) || 'customer'
  );
}

/** The kycStatus the spec's table gives a fullName; UNVERIFIED until the customer has a name. */
export function kycAtCreation(fullName: string | undefined): KycStatus {
  return fullName === undefined ? 'UNVERIFIED' : bySuffix(INDIVIDUAL_KYC, fullName).kycStatus;
}

type NewCustomer = Omit<
  CustomerRec,
  'id' | 'createdAt' | 'updatedAt' | 'umaAddress' | 'platformCustomerId' | 'kycDecidedBy'
> & {
  umaAddress?: string;
  platformCustomerId?: string;
};

export function insertCustomer(emu: EmulatorContext, fields: NewCustomer): CustomerRec {
  const now = emu.iso();
  const id = newId('Customer');
  const name = fields.fullName ?? (fields.businessInfo?.legalName as string | undefined) ?? 'customer';
  const umaAddress = fields.umaAddress ?? `$${slug(name)}.${id.slice(9, 17)}@${UMA_DOMAIN}`;
  const platformCustomerId = fields.platformCustomerId ?? id.slice(9);
  const customer: CustomerRec = { id, ...fields, umaAddress, platformCustomerId, createdAt: now, updatedAt: now };
  if (customer.customerType === 'INDIVIDUAL' && customer.fullName !== undefined)
    customer.kycDecidedBy = customer.fullName;
  emu.table(customers).set(id, customer);
  createAccount(emu, id, 'USD');
  createAccount(emu, id, 'EUR');
  return customer;
}

const CUSTOMER_EVENT_STATUSES = new Set(['PENDING', 'APPROVED', 'REJECTED']);

/**
 * Moves a customer's KYC (individual) or KYB (business) status and emits the service's customer
 * webhook (`CUSTOMER.KYC_PENDING`, `CUSTOMER.KYB_APPROVED`…, data: the customer) when it changed,
 * or when `announce` says a verification has just put it there again. UNVERIFIED has no event.
 */
export function setCustomerStatus(emu: EmulatorContext, c: CustomerRec, status: KycStatus, announce = false): void {
  const business = c.customerType === 'BUSINESS';
  const before = business ? c.kybStatus : c.kycStatus;
  if (business) c.kybStatus = status as KybStatus;
  else c.kycStatus = status;
  if (before !== status) c.updatedAt = emu.iso();
  emu.table(customers).set(c.id, c);
  if ((before !== status || announce) && CUSTOMER_EVENT_STATUSES.has(status)) {
    emu.outbox.emit(`CUSTOMER.${business ? 'KYB' : 'KYC'}_${status}`, renderCustomer(emu, c));
  }
}
