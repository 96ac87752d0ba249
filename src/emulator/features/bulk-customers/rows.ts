/**
 * One CSV row to one customer, with the columns the description lists: the row's cells are read
 * with the kernel's Fields under their column names, so a bad row's error names its columns. An
 * empty cell is an absent value. `platformAccountId` and `description` are read (length-checked)
 * but not kept: an emulator customer has neither.
 */
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import {
  CUSTOMER_TYPES,
  byPlatformCustomerId,
  customers,
  insertCustomer,
  kycAtCreation,
} from '../customers/customers.js';
import { countryRules, dateRules, defined, emailRules } from '../customers/fields.js';
import { checkUmaFree } from '../customers/update.js';

/** The columns every file must name in its header (the rest are required per customer type, per row). */
export const REQUIRED_COLUMNS = ['umaAddress', 'platformCustomerId', 'customerType'] as const;

/** What the job keeps of a failed row (the description's BulkCustomerImportErrorEntry). */
export interface RowError {
  correlationId: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The description's example writes addresses without the leading `$`; both are taken. */
const withDollar = (v: string) => (v.startsWith('$') ? v : `$${v}`);

const text = (max: number) => ({ minLength: 1, maxLength: max });

/** Creates the row's customer; returns undefined, or why the row failed. `row` counts the header as row 1. */
export function importRow(emu: EmulatorContext, cells: Record<string, string>, row: number): RowError | undefined {
  const present = Object.fromEntries(Object.entries(cells).filter(([, v]) => v.trim() !== ''));
  const f = new Fields(present);
  const uma = f.string('umaAddress', {
    required: true,
    maxLength: 320,
    check: (v) =>
      UMA_ADDRESS_PATTERN.test(withDollar(v)) ? undefined : 'umaAddress must be a UMA address ($user@domain)',
  });
  const platformCustomerId = f.string('platformCustomerId', { required: true, ...text(128) });
  const customerType = f.string('customerType', { required: true, enum: CUSTOMER_TYPES });
  const individual = customerType === 'INDIVIDUAL';
  const person = individual
    ? defined({
        fullName: f.string('fullName', { required: true, ...text(200) }),
        birthDate: f.string('birthDate', { required: true, ...dateRules('birthDate') }),
        email: f.string('email', emailRules),
      })
    : undefined;
  const business = defined({
    legalName: f.string('businessLegalName', { required: customerType === 'BUSINESS', ...text(200) }),
    registrationNumber: f.string('businessRegistrationNumber', text(64)),
    taxId: f.string('businessTaxId', text(64)),
  });
  const address = defined({
    line1: f.string('addressLine1', { required: true, ...text(200) }),
    line2: f.string('addressLine2', { maxLength: 200 }),
    city: f.string('city', { required: true, ...text(100) }),
    state: f.string('state', { required: true, ...text(100) }),
    postalCode: f.string('postalCode', { required: true, ...text(20) }),
    country: f.string('country', { required: true, ...countryRules }),
  });
  f.string('platformAccountId', { maxLength: 255 });
  f.string('description', { maxLength: 1024 });
  const correlationId = platformCustomerId ?? `row ${row}`;
  if (f.errors.length > 0) {
    const names = f.errors.map((e) => e.field).join(', ');
    return { correlationId, code: 'INVALID_INPUT', message: `Row ${row}: ${names}`, details: { errors: f.errors } };
  }
  const umaAddress = withDollar(uma!);
  if (emu.table(customers).first(byPlatformCustomerId, platformCustomerId!)) {
    return {
      correlationId,
      code: 'CONFLICT',
      message: `Row ${row}: platformCustomerId ${platformCustomerId} is already used by another customer`,
    };
  }
  try {
    checkUmaFree(emu, umaAddress);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { correlationId, code: error.code, message: `Row ${row}: ${error.message}` };
  }
  insertCustomer(emu, {
    customerType: customerType as 'INDIVIDUAL' | 'BUSINESS',
    umaAddress,
    platformCustomerId: platformCustomerId!,
    address,
    ...(individual
      ? { ...person, kycStatus: kycAtCreation(person!.fullName) }
      : { businessInfo: { ...business, country: address.country! }, kybStatus: 'UNVERIFIED' as const }),
  });
  return undefined;
}
