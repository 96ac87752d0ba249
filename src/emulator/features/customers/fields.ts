/**
 * The customer fields `POST /customers` and `PATCH /customers/{id}` share, read with the kernel's
 * Fields so that one answer lists every bad field. Every caller's body is checked against the
 * description before it runs (what is required, formats, the phone pattern, ISO countries, enums),
 * so the readers keep only the emulator's rules beyond it: lengths, the spec's address `city`, an
 * individual's SSN or ITIN. Beneficial owners reuse the address reader. The rules below are also
 * the bulk CSV import's, whose rows no schema checks (bulk-customers/rows.ts).
 */
import { INDIVIDUAL_ID_TYPES, US_TAX_ID_PATTERN } from '../../../service/index.js';
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

/**
 * The Address object (spec: line1, city, state, postalCode, country). The description requires
 * line1, postalCode and country (an ISO code); the spec's address has a city too, so it is required here.
 */
export function readAddress(fields: Fields): Record<string, string> | undefined {
  const address = fields.object('address');
  if (!address) return undefined;
  const before = fields.errors.length;
  const out = defined({
    line1: address.string('line1', { minLength: 1, maxLength: 200 }),
    line2: address.string('line2', { maxLength: 200 }),
    city: address.string('city', { required: true, minLength: 1, maxLength: 100 }),
    state: address.string('state', { maxLength: 100 }),
    postalCode: address.string('postalCode', { minLength: 1, maxLength: 20 }),
    country: address.string('country'),
  });
  return fields.errors.length === before ? out : undefined;
}

/** Contact fields of both customer types (their email format and E.164 pattern are the description's). */
export function readContact(f: Fields): { email?: string; phoneNumber?: string } {
  return defined({ email: f.string('email'), phoneNumber: f.string('phoneNumber') });
}

/**
 * IndividualCustomerFields (birthDate's date and nationality's ISO code are the description's). An
 * individual identifies with an SSN or ITIN only (api-facts §1), `###-##-####`.
 */
export function readIndividual(f: Fields) {
  return defined({
    fullName: f.string('fullName', { minLength: 1, maxLength: 200 }),
    birthDate: f.string('birthDate'),
    nationality: f.string('nationality'),
    idType: f.string('idType', { enum: INDIVIDUAL_ID_TYPES }),
    identifier: f.string('identifier', { pattern: US_TAX_ID_PATTERN, format: 'us-ssn' }),
    address: readAddress(f),
  });
}

/**
 * BusinessInfo. What the description's BusinessInfo requires at creation (the object, legalName,
 * country, taxId, incorporatedOn), its formats, ISO countries and entityType's enum are checked
 * before this runs; whatever else a verification needs is reported by it as MISSING_FIELD.
 */
export function readBusinessInfo(f: Fields): BusinessInfo | undefined {
  const b = f.object('businessInfo');
  if (!b) return undefined;
  const before = f.errors.length;
  const info = defined({
    legalName: b.string('legalName', { minLength: 1, maxLength: 200 }),
    doingBusinessAs: b.string('doingBusinessAs', { minLength: 1, maxLength: 200 }),
    country: b.string('country'),
    registrationNumber: b.string('registrationNumber', { minLength: 1, maxLength: 64 }),
    incorporatedOn: b.string('incorporatedOn'),
    entityType: b.string('entityType'),
    taxId: b.string('taxId', { minLength: 1, maxLength: 64 }),
    countriesOfOperation: b.stringArray('countriesOfOperation'),
  });
  return f.errors.length === before ? info : undefined;
}
