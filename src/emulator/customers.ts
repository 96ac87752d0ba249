/**
 * Customers and their internal accounts. POST /customers decides kycStatus at creation from the
 * last three characters of fullName (001 PENDING, 002 REJECTED, 003 UNVERIFIED, else APPROVED);
 * business customers start with kybStatus UNVERIFIED. Each new customer gets embedded-wallet
 * internal accounts in USD (listed first) and EUR, and a UMA address on the emulator's domain (or
 * the one it asked for).
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { badRequest, notFound } from './errors.js';
import { renderAccount } from './money.js';
import { ownedListRoute, type Route } from './router.js';
import type { AccountRec, CustomerRec, KycStatus } from './state.js';
import { Fields, ID_PATTERNS, UMA_ADDRESS_PATTERN, isValidDate } from './validation.js';

export const UMA_DOMAIN = 'emulator.svc.test';
const COUNTRY = /^[A-Z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function kycStatusFor(fullName: string): KycStatus {
  const suffix = fullName.slice(-3);
  if (suffix === '001') return 'PENDING';
  if (suffix === '002') return 'REJECTED';
  if (suffix === '003') return 'UNVERIFIED';
  return 'APPROVED';
}

function renderCustomer(c: CustomerRec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
}

export function findCustomerByUma(emu: EmulatorContext, address: string): CustomerRec | undefined {
  const wanted = address.toLowerCase();
  for (const c of emu.state.customers.values()) if (c.umaAddress.toLowerCase() === wanted) return c;
  return undefined;
}

function createAccount(emu: EmulatorContext, customerId: string, currency = 'USD'): AccountRec {
  const now = emu.iso();
  const account: AccountRec = {
    id: `InternalAccount:${randomUUID()}`,
    customerId,
    organizationId: randomUUID(),
    type: 'EMBEDDED_WALLET',
    status: 'ACTIVE',
    currency,
    balance: 0,
    createdAt: now,
    updatedAt: now,
  };
  emu.state.accounts.set(account.id, account);
  return account;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '').slice(0, 40) || 'customer';
}

export function insertCustomer(emu: EmulatorContext, fields: Omit<CustomerRec, 'id' | 'createdAt' | 'updatedAt' | 'umaAddress'> & { umaAddress?: string }): CustomerRec {
  const now = emu.iso();
  const id = `Customer:${randomUUID()}`;
  const umaAddress = fields.umaAddress ?? `$${slug(fields.fullName ?? fields.businessInfo?.legalName ?? 'customer')}.${id.slice(9, 17)}@${UMA_DOMAIN}`;
  const customer: CustomerRec = { id, ...fields, umaAddress, createdAt: now, updatedAt: now };
  emu.state.customers.set(id, customer);
  createAccount(emu, id, 'USD');
  createAccount(emu, id, 'EUR');
  emu.changed();
  return customer;
}

function readAddress(fields: Fields): Record<string, string> | undefined {
  const address = fields.object('address');
  if (!address) return undefined;
  const out: Record<string, string | undefined> = {
    line1: address.string('line1', { required: true, minLength: 1, maxLength: 200 }),
    city: address.string('city', { required: true, minLength: 1, maxLength: 100 }),
    state: address.string('state', { maxLength: 100 }),
    postalCode: address.string('postalCode', { required: true, minLength: 1, maxLength: 20 }),
    country: address.string('country', { required: true, pattern: COUNTRY, format: 'iso3166-1-alpha-2' }),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/customers',
    handler(req, emu) {
      const f = new Fields(req.json());
      const customerType = f.string('customerType', { required: true, enum: ['INDIVIDUAL', 'BUSINESS'] });
      const individual = customerType !== 'BUSINESS';
      const fullName = f.string('fullName', { required: individual, minLength: 1, maxLength: 200 });
      const birthDate = f.string('birthDate', { format: 'date', check: (v) => (isValidDate(v) ? undefined : 'birthDate must be a date YYYY-MM-DD') });
      const nationality = f.string('nationality', { pattern: COUNTRY, format: 'iso3166-1-alpha-2' });
      const email = f.string('email', { format: 'email', check: (v) => (EMAIL.test(v) ? undefined : 'email must be an email address') });
      const idType = f.string('idType', { enum: ['SSN', 'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] });
      const identifier = f.string('identifier', { minLength: 1, maxLength: 64 });
      const umaAddress = f.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN });
      const platformCustomerId = f.string('platformCustomerId', { minLength: 1, maxLength: 128 });
      const address = readAddress(f);
      let businessInfo: Record<string, string> | undefined;
      if (customerType === 'BUSINESS') {
        const b = f.object('businessInfo', { required: true });
        const legalName = b?.string('legalName', { required: true, minLength: 1, maxLength: 200 });
        const registrationNumber = b?.string('registrationNumber', { required: true, minLength: 1, maxLength: 64 });
        if (legalName && registrationNumber) businessInfo = { legalName, registrationNumber };
      }
      f.done();
      if (umaAddress && findCustomerByUma(emu, umaAddress)) {
        throw badRequest('INVALID_INPUT', `umaAddress ${umaAddress} is already taken`, {
          errors: [{ field: 'umaAddress', message: 'umaAddress is already taken by another customer' }],
        });
      }
      const customer = insertCustomer(emu, {
        customerType: customerType as 'INDIVIDUAL' | 'BUSINESS',
        fullName, birthDate, nationality, email, idType, identifier, address, businessInfo, platformCustomerId,
        ...(individual ? { kycStatus: kycStatusFor(fullName!) } : { kybStatus: 'UNVERIFIED' as const }),
        ...(umaAddress ? { umaAddress } : {}),
      });
      return { status: 201, body: renderCustomer(customer) };
    },
  },
  {
    method: 'GET',
    path: '/customers/:id',
    handler(req, emu) {
      const customer = emu.state.customers.get(req.params.id!);
      if (!customer) throw notFound('Customer', req.params.id!, 'USER_NOT_FOUND');
      return { status: 200, body: renderCustomer(customer) };
    },
  },
  ownedListRoute('/internal-accounts', 'customerId', ID_PATTERNS.customer, (emu) => emu.state.accounts.values(), (a) => a.customerId, renderAccount),
  {
    method: 'GET',
    path: '/internal-accounts/:id',
    handler(req, emu) {
      const account = emu.state.accounts.get(req.params.id!);
      if (!account) throw notFound('InternalAccount', req.params.id!);
      return { status: 200, body: renderAccount(account) };
    },
  },
];
