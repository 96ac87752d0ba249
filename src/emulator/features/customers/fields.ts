/**
 * The customer fields `POST /customers` and `PATCH /customers/{id}` share, read with the kernel's
 * Fields so that one answer lists every bad field. Creation and update differ only in what is
 * required, so each reader takes `required`. Beneficial owners reuse the address reader.
 */
import { ENTITY_TYPES, INDIVIDUAL_ID_TYPES, US_TAX_ID_PATTERN } from '../../../service/index.js';
import type { Fields } from '../../kernel/fields.js';
import type { BusinessInfo } from './customers.js';

export const COUNTRY = /^[A-Z]{2}$/;
export const PHONE = /^\+[1-9]\d{1,14}$/;

// Fields enforces the formats it knows (kernel/request-check/formats.ts): one rule a format, emulator-wide.
export const dateRules = (_field: string) => ({ format: 'date' });
export const emailRules = { format: 'email' };
export const countryRules = { format: 'iso3166-1-alpha-2' };

/** Drops undefined values, so a record only holds what was sent. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** The Address object (spec: line1, city, state, postalCode, country). */
export function readAddress(fields: Fields, required = false): Record<string, string> | undefined {
  const address = fields.object('address', { required });
  if (!address) return undefined;
  const before = fields.errors.length;
  const out = defined({
    line1: address.string('line1', { required: true, minLength: 1, maxLength: 200 }),
    line2: address.string('line2', { maxLength: 200 }),
    city: address.string('city', { required: true, minLength: 1, maxLength: 100 }),
    state: address.string('state', { maxLength: 100 }),
    postalCode: address.string('postalCode', { required: true, minLength: 1, maxLength: 20 }),
    country: address.string('country', { required: true, ...countryRules }),
  });
  return fields.errors.length === before ? out : undefined;
}

/** Contact fields of both customer types. */
export function readContact(f: Fields): { email?: string; phoneNumber?: string } {
  return defined({
    email: f.string('email', emailRules),
    phoneNumber: f.string('phoneNumber', { pattern: PHONE, format: 'e.164' }),
  });
}

/** IndividualCustomerFields; `identifier` is an SSN or ITIN (`###-##-####`). */
export function readIndividual(f: Fields) {
  return defined({
    fullName: f.string('fullName', { minLength: 1, maxLength: 200 }),
    birthDate: f.string('birthDate', dateRules('birthDate')),
    nationality: f.string('nationality', countryRules),
    idType: f.string('idType', { enum: INDIVIDUAL_ID_TYPES }),
    identifier: f.string('identifier', { pattern: US_TAX_ID_PATTERN, format: 'us-ssn' }),
    address: readAddress(f),
  });
}

/**
 * BusinessInfo. Creation needs the object with what the description's BusinessInfo requires
 * (legalName, country, taxId, incorporatedOn); whatever else a verification needs is reported by
 * it as MISSING_FIELD.
 */
export function readBusinessInfo(f: Fields, creating: boolean): BusinessInfo | undefined {
  const b = f.object('businessInfo', { required: creating });
  if (!b) return undefined;
  const before = f.errors.length;
  const info = defined({
    legalName: b.string('legalName', { required: creating, minLength: 1, maxLength: 200 }),
    doingBusinessAs: b.string('doingBusinessAs', { minLength: 1, maxLength: 200 }),
    country: b.string('country', { ...countryRules, required: creating }),
    registrationNumber: b.string('registrationNumber', { minLength: 1, maxLength: 64 }),
    incorporatedOn: b.string('incorporatedOn', { ...dateRules('businessInfo.incorporatedOn'), required: creating }),
    entityType: b.string('entityType', { enum: ENTITY_TYPES }),
    taxId: b.string('taxId', { required: creating, minLength: 1, maxLength: 64 }),
    countriesOfOperation: b.stringArray('countriesOfOperation', { pattern: COUNTRY }),
  });
  return f.errors.length === before ? info : undefined;
}
