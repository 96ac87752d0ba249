/** POST /customers and GET /customers/{id}. */
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import { INDIVIDUAL_KYC, bySuffix } from '../../../service/index.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { Fields, isValidDate } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { customers, findCustomerByUma, insertCustomer, renderCustomer } from './customers.js';

const COUNTRY = /^[A-Z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
        ...(individual ? { kycStatus: bySuffix(INDIVIDUAL_KYC, fullName!).kycStatus } : { kybStatus: 'UNVERIFIED' as const }),
        ...(umaAddress ? { umaAddress } : {}),
      });
      return { status: 201, body: renderCustomer(customer) };
    },
  },
  {
    method: 'GET',
    path: '/customers/:id',
    handler(req, emu) {
      const customer = emu.table(customers).get(req.params.id!);
      if (!customer) throw notFound('Customer', req.params.id!, 'USER_NOT_FOUND');
      return { status: 200, body: renderCustomer(customer) };
    },
  },
];
