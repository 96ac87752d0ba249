/**
 * The beneficiary of an external account and the rail's name check. The check's answer comes from
 * the spec's beneficiary table (src/service) on the primary identifier's 1xx suffix; it is only
 * reported on the account and never changes how transfers or quotes go.
 */
import { ACCOUNT_TYPES, INDIVIDUAL_BENEFICIARY_EXTRAS } from '../../../service/account-types.js';
import { BENEFICIARY_NAME_VERIFICATION, type BeneficiaryVerificationStatus } from '../../../service/money-magic.js';
import { bySuffix } from '../../../service/suffix-table.js';
import { badRequest } from '../../kernel/errors.js';
import type { Fields } from '../../kernel/fields.js';

/** Strips the fields that were not given. */
const given = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

function readAddress(f: Fields): Record<string, unknown> | undefined {
  const a = f.object('address');
  return (
    a &&
    given({
      line1: a.string('line1'),
      line2: a.string('line2'),
      city: a.string('city'),
      state: a.string('state'),
      postalCode: a.string('postalCode'),
      country: a.string('country'),
    })
  );
}

/** The string fields of the description's beneficiaries (BusinessBeneficiary, UsdBeneficiary and its kin, WalletIndividualBeneficiary). */
const BUSINESS = ['legalName', 'registrationNumber', 'taxId', 'email', 'phoneNumber', 'countryOfResidence'];
const INDIVIDUAL = ['fullName', 'birthDate', 'nationality', 'email', 'phoneNumber', 'countryOfResidence'];
const WALLET_INDIVIDUAL = ['fullName', 'countryOfResidence'];

/**
 * The `beneficiary` of an account's info of `accountType`, as stored: every field the description's
 * beneficiary of that type defines. Its shape is the description's, checked before the handler
 * runs: required for bank types, the beneficiaryType's branch (its required fields: fullName or
 * legalName, countryOfResidence for EUR and wallets, an address where a type asks for one, a type's
 * own fields such as COP's identity document), ISO countries. The description sets no format,
 * pattern or length on the names, dates and phone numbers here, so none is added; a wallet's
 * individual beneficiary has only its name and country of residence.
 */
export function readBeneficiary(f: Fields, accountType: string): Record<string, unknown> | undefined {
  const b = f.object('beneficiary');
  if (!b) return undefined;
  const beneficiaryType = b.string('beneficiaryType');
  const wallet = ACCOUNT_TYPES[accountType]?.wallet ?? false;
  const names =
    beneficiaryType === 'BUSINESS'
      ? BUSINESS
      : wallet
        ? WALLET_INDIVIDUAL
        : [...INDIVIDUAL, ...(INDIVIDUAL_BENEFICIARY_EXTRAS[accountType] ?? [])];
  return given({
    beneficiaryType,
    ...Object.fromEntries(names.map((name) => [name, b.string(name)])),
    address: wallet && beneficiaryType !== 'BUSINESS' ? undefined : readAddress(b),
  });
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
