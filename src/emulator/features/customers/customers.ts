/**
 * Customers. Each new customer gets embedded-wallet internal accounts in USD (listed first) and
 * EUR, and a UMA address on the emulator's domain (or the one it asked for). kycStatus at creation
 * follows the spec's individual KYC table (src/service); business customers start UNVERIFIED.
 */
import { randomUUID } from 'node:crypto';
import type { KybStatus, KycStatus } from '../../../service/identity-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable } from '../../kernel/tables.js';
import { createAccount } from '../accounts/accounts.js';

export const UMA_DOMAIN = 'emulator.svc.test';

export interface CustomerRec {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  idType?: string;
  identifier?: string;
  address?: Record<string, string>;
  businessInfo?: Record<string, string>;
  kycStatus?: KycStatus;
  kybStatus?: KybStatus;
  umaAddress: string;
  platformCustomerId?: string;
  createdAt: string;
  updatedAt: string;
}

export const customers = durableTable<CustomerRec>('customers');

export function renderCustomer(c: CustomerRec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
}

export function findCustomerByUma(emu: EmulatorContext, address: string): CustomerRec | undefined {
  const wanted = address.toLowerCase();
  return emu.table(customers).find((c) => c.umaAddress.toLowerCase() === wanted);
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '').slice(0, 40) || 'customer';
}

export function insertCustomer(emu: EmulatorContext, fields: Omit<CustomerRec, 'id' | 'createdAt' | 'updatedAt' | 'umaAddress'> & { umaAddress?: string }): CustomerRec {
  const now = emu.iso();
  const id = `Customer:${randomUUID()}`;
  const umaAddress = fields.umaAddress ?? `$${slug(fields.fullName ?? fields.businessInfo?.legalName ?? 'customer')}.${id.slice(9, 17)}@${UMA_DOMAIN}`;
  const customer: CustomerRec = { id, ...fields, umaAddress, createdAt: now, updatedAt: now };
  emu.table(customers).set(id, customer);
  createAccount(emu, id, 'USD');
  createAccount(emu, id, 'EUR');
  return customer;
}
