/**
 * The beneficiary of an external account and the rail's name check. The check's answer comes from
 * the spec's beneficiary table (src/service) on the primary identifier's 1xx suffix; it is only
 * reported on the account and never changes how transfers or quotes go.
 */
import { BENEFICIARY_NAME_VERIFICATION, type BeneficiaryVerificationStatus } from '../../../service/money-magic.js';
import { bySuffix } from '../../../service/suffix-table.js';
import { badRequest } from '../../kernel/errors.js';
import type { Fields } from '../../kernel/fields.js';

const COUNTRY = /^[A-Z]{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function readAddress(f: Fields): Record<string, string> | undefined {
  const a = f.object('address');
  if (!a) return undefined;
  const out = {
    line1: a.string('line1', { required: true, minLength: 1, maxLength: 200 }),
    line2: a.string('line2', { maxLength: 200 }),
    city: a.string('city', { maxLength: 100 }),
    state: a.string('state', { maxLength: 100 }),
    postalCode: a.string('postalCode', { required: true, minLength: 1, maxLength: 20 }),
    country: a.string('country', { required: true, pattern: COUNTRY }),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** Reads `beneficiary` (required for bank variants); countryOfResidence is required where the description requires it. */
export function readBeneficiary(
  f: Fields,
  opts: { required: boolean; wallet: boolean; countryRequired: boolean },
): Record<string, unknown> | undefined {
  const b = f.object('beneficiary', { required: opts.required });
  if (!b) return undefined;
  const type = b.string('beneficiaryType', { required: true, enum: ['INDIVIDUAL', 'BUSINESS'] });
  const common = {
    email: b.string('email', { maxLength: 254 }),
    phoneNumber: b.string('phoneNumber', { pattern: /^\+[0-9]{6,14}$/ }),
    countryOfResidence: b.string('countryOfResidence', {
      required: type === 'INDIVIDUAL' && (opts.wallet || opts.countryRequired),
      pattern: COUNTRY,
    }),
  };
  const fields =
    type === 'BUSINESS'
      ? {
          beneficiaryType: type,
          legalName: b.string('legalName', { required: true, minLength: 1, maxLength: 255 }),
          registrationNumber: b.string('registrationNumber', { maxLength: 64 }),
          taxId: b.string('taxId', { maxLength: 64 }),
          ...common,
          address: readAddress(b),
        }
      : {
          beneficiaryType: type,
          fullName: b.string('fullName', { required: true, minLength: 1, maxLength: 255 }),
          ...(opts.wallet
            ? {}
            : {
                birthDate: b.string('birthDate', { pattern: DATE, format: 'date' }),
                nationality: b.string('nationality', { pattern: COUNTRY }),
              }),
          ...common,
          address: opts.wallet ? undefined : readAddress(b),
        };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export interface NameCheck {
  beneficiaryVerificationStatus: BeneficiaryVerificationStatus;
  beneficiaryVerifiedData?: { fullName: string };
}

/** The rail's answer for this identifier and name; suffix 105 refuses the account (400). */
export function checkBeneficiaryName(primaryIdentifier: string, name: string): NameCheck {
  const outcome = bySuffix(BENEFICIARY_NAME_VERIFICATION, primaryIdentifier);
  if (outcome === 'INVALID_ACCOUNT') {
    throw badRequest(
      'INVALID_BANK_ACCOUNT',
      'The receiving institution reports this account as invalid (sandbox suffix 105)',
    );
  }
  const verified =
    outcome === 'MATCHED'
      ? name
      : outcome === 'PARTIAL_MATCH'
        ? partialName(name)
        : outcome === 'NOT_MATCHED'
          ? 'Sandbox Other Holder'
          : undefined;
  return {
    beneficiaryVerificationStatus: outcome,
    ...(verified ? { beneficiaryVerifiedData: { fullName: verified } } : {}),
  };
}

/** "Jane Q. Doe" → "J. Doe": the kind of fuzzy answer a rail gives. */
function partialName(name: string): string {
  const parts = name.trim().split(/\s+/);
  return parts.length > 1 ? `${parts[0]![0]}. ${parts[parts.length - 1]}` : name.toUpperCase();
}
