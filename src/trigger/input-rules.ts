/**
 * What each trigger recipe lets the caller supply, as data: the resources it
 * can reuse (and why not the others), the request fields the caller may set with their types, and
 * the guards that refuse a value which would select another row of the spec's magic tables.
 */
import {
  BENEFICIAL_OWNER_KYC,
  BENEFICIARY_NAME_VERIFICATION,
  BUSINESS_KYB,
  CARD_AUTHORIZATION,
  EXTERNAL_ACCOUNT_TRANSFER,
  INDIVIDUAL_KYC,
  QUOTE_EXECUTION,
  primaryIdentifier,
  suffixRow,
  umaScenario,
  type SuffixTable,
} from '../service/index.js';
import type { RecipeName, Scenario } from './catalog.js';

/** The resources a recipe can be pointed at by an option. */
export type ResourceOption = 'customer' | 'account' | 'externalAccount' | 'credential';

export type Kind = 'string' | 'integer' | 'date' | 'country' | 'amount';
/** A check of a value against the scenario's magic: a reason when it would defeat it. */
type Guard = (value: string, scenario: Scenario) => string | undefined;
interface Settable {
  kind: Kind;
  guard?: Guard;
}

/** Same row of `table` as the scenario's own magic value, else why not. */
const sameRow =
  (table: SuffixTable<unknown>): Guard =>
  (value, scenario) =>
    suffixRow(table, value) === suffixRow(table, scenario.magic.value)
      ? undefined
      : `its ending selects another row of ${table.name} than ${scenario.name} needs (keep the last ${table.length} characters "${scenario.magic.value.slice(-table.length)}")`;
/** The table's "any other ending" row, else why not. */
const otherRow =
  (table: SuffixTable<unknown>, why: string): Guard =>
  (value) =>
    suffixRow(table, value) === table.otherwise ? undefined : `it ends in a magic suffix of ${table.name}, and ${why}`;
const both =
  (...guards: Guard[]): Guard =>
  (value, scenario) =>
    guards.map((g) => g(value, scenario)).find(Boolean);
const digits: Guard = (value) => (/^\d{4,34}$/.test(value) ? undefined : 'an account number is 4 to 34 digits');

const APPROVED_HOLDER = otherRow(INDIVIDUAL_KYC, 'this scenario needs an APPROVED customer');
const CARDHOLDER: Guard = (value, scenario) => {
  const rejected = value.endsWith('004');
  if (scenario.name === 'card.issuer-rejected')
    return rejected && !APPROVED_HOLDER(value, scenario)
      ? undefined
      : 'card.issuer-rejected needs a fullName ending in 004';
  return rejected ? 'a fullName ending in 004 makes the issuer reject the card' : APPROVED_HOLDER(value, scenario);
};
const UMA: Guard = (value, scenario) => {
  const wanted = umaScenario(scenario.magic.value);
  const given = umaScenario(value);
  return given && given.scenario === wanted?.scenario && given.currency === wanted.currency
    ? undefined
    : `it must be the magic address $${wanted?.scenario}.${wanted?.currency.toLowerCase()}@<any domain>`;
};

const customerFields = (fullName: Guard): Record<string, Settable> => ({
  'customer.fullName': { kind: 'string', guard: fullName },
  'customer.birthDate': { kind: 'date' },
  'customer.nationality': { kind: 'country' },
  'customer.email': { kind: 'string' },
  'customer.address.line1': { kind: 'string' },
  'customer.address.city': { kind: 'string' },
  'customer.address.postalCode': { kind: 'string' },
  'customer.address.country': { kind: 'country' },
});
const externalAccountFields = (accountNumber: Guard): Record<string, Settable> => ({
  'externalAccount.accountInfo.accountNumber': { kind: 'string', guard: both(digits, accountNumber) },
  'externalAccount.accountInfo.routingNumber': { kind: 'string' },
  'externalAccount.accountInfo.beneficiary.fullName': { kind: 'string' },
});
/** Transfers and quotes must not hit the 1xx beneficiary rows (105 refuses the account). */
const PAYABLE = otherRow(BENEFICIARY_NAME_VERIFICATION, 'the account must pass the name check for a payment');

export interface RecipeInputs {
  /** Resources the recipe can take instead of making them, with why not for the others. */
  reuse: Partial<Record<ResourceOption, true>>;
  /** Why a resource cannot be reused here (shown when it is given). */
  refuse: Partial<Record<ResourceOption, string>>;
  set: Record<string, Settable>;
  /**
   * What an existing external account (--external-account) must keep: the rows its primary
   * identifier selects (money-magic primaryIdentifier: an account number, IBAN, CLABE, PIX key, UPI
   * address, phone number or wallet address), and the currencies the recipe can pay out in.
   */
  ownExternalAccount?: { rows: Guard; currencies?: readonly string[] };
}

const MAGIC_ON_CUSTOMER =
  "the magic value is the new customer's own (an existing customer's status is already decided)";
const NO_CUSTOMER = 'this scenario makes no customer';
const MAGIC_ON_ACCOUNT =
  "the magic value is the new external account's number, and its name check happens when it is created";
const NO_ACCOUNT = 'this scenario uses no internal account';
const NO_EXTERNAL = 'this scenario uses no external account';

export const RECIPE_INPUTS: Record<RecipeName, RecipeInputs> = {
  'individual-kyc': {
    reuse: {},
    refuse: { customer: MAGIC_ON_CUSTOMER, account: NO_ACCOUNT, externalAccount: NO_EXTERNAL },
    set: customerFields(sameRow(INDIVIDUAL_KYC)),
  },
  'individual-verification': {
    reuse: {},
    refuse: { customer: MAGIC_ON_CUSTOMER, account: NO_ACCOUNT, externalAccount: NO_EXTERNAL },
    set: customerFields(sameRow(INDIVIDUAL_KYC)),
  },
  'business-verification': {
    reuse: {},
    refuse: { customer: MAGIC_ON_CUSTOMER, account: NO_ACCOUNT, externalAccount: NO_EXTERNAL },
    set: {
      'business.businessInfo.legalName': { kind: 'string' },
      'business.businessInfo.registrationNumber': { kind: 'string', guard: sameRow(BUSINESS_KYB) },
    },
  },
  'beneficial-owner': {
    reuse: {},
    refuse: {
      customer: 'the owner resolves with a new business that is approved at once',
      account: NO_ACCOUNT,
      externalAccount: NO_EXTERNAL,
    },
    set: {
      'business.businessInfo.legalName': { kind: 'string' },
      'owner.personalInfo.firstName': { kind: 'string' },
      'owner.personalInfo.lastName': { kind: 'string', guard: sameRow(BENEFICIAL_OWNER_KYC) },
      'owner.ownershipPercentage': { kind: 'integer' },
    },
  },
  // An external account of yours is used when its number ends in the scenario's digits (checked with a GET first).
  'external-transfer': {
    reuse: { customer: true, account: true, externalAccount: true },
    refuse: {},
    set: {
      ...customerFields(APPROVED_HOLDER),
      ...externalAccountFields(both(sameRow(EXTERNAL_ACCOUNT_TRANSFER), PAYABLE)),
      'transfer.amount': { kind: 'amount' },
    },
    // POST /transfer-out moves one currency: the customer's dollars.
    ownExternalAccount: { rows: both(sameRow(EXTERNAL_ACCOUNT_TRANSFER), PAYABLE), currencies: ['USD'] },
  },
  'beneficiary-verification': {
    reuse: { customer: true },
    refuse: { account: NO_ACCOUNT, externalAccount: MAGIC_ON_ACCOUNT },
    set: { ...customerFields(APPROVED_HOLDER), ...externalAccountFields(sameRow(BENEFICIARY_NAME_VERIFICATION)) },
  },
  'quote-execution': {
    reuse: { customer: true, externalAccount: true },
    refuse: { account: "the quote is funded from the platform's USD account, which needs no wallet signature" },
    set: {
      ...customerFields(APPROVED_HOLDER),
      ...externalAccountFields(both(sameRow(QUOTE_EXECUTION), PAYABLE)),
      'quote.lockedCurrencyAmount': { kind: 'amount' },
      'quote.description': { kind: 'string' },
    },
    // A quote pays out in the account's own currency: any of the service's account types will do.
    ownExternalAccount: { rows: both(sameRow(QUOTE_EXECUTION), PAYABLE) },
  },
  'realtime-funding': {
    reuse: { customer: true, account: true },
    refuse: { externalAccount: NO_EXTERNAL },
    set: {
      ...customerFields(APPROVED_HOLDER),
      'quote.lockedCurrencyAmount': { kind: 'amount' },
      'quote.description': { kind: 'string' },
    },
  },
  'uma-destination': {
    reuse: {},
    refuse: {
      customer: NO_CUSTOMER,
      account: 'the quote is paid by real-time funding, not from an account',
      externalAccount: NO_EXTERNAL,
    },
    set: {
      'quote.destination.umaAddress': { kind: 'string', guard: UMA },
      'quote.lockedCurrencyAmount': { kind: 'amount' },
      'quote.description': { kind: 'string' },
    },
  },
  card: {
    reuse: { customer: true, account: true },
    refuse: { externalAccount: NO_EXTERNAL },
    set: customerFields(CARDHOLDER),
  },
  // The descriptor of the lifecycle scenarios must approve (it is the table's "any other" row for them).
  'card-transaction': {
    reuse: { customer: true, account: true },
    refuse: { externalAccount: NO_EXTERNAL },
    set: {
      ...customerFields(APPROVED_HOLDER),
      'authorization.merchant.descriptor': { kind: 'string', guard: sameRow(CARD_AUTHORIZATION) },
      'authorization.merchant.mcc': { kind: 'string' },
      'authorization.amount': { kind: 'amount' },
    },
  },
  'otp-login': {
    reuse: { credential: true },
    refuse: { customer: NO_CUSTOMER, account: NO_ACCOUNT, externalAccount: NO_EXTERNAL },
    set: {},
  },
};

/** The settable path that carries the scenario's magic value, if one does. */
export function magicPath(scenario: Scenario): string | undefined {
  switch (scenario.recipe) {
    case 'individual-kyc':
    case 'individual-verification':
      return 'customer.fullName';
    case 'card':
      return scenario.magic.field === 'cardholder fullName' ? 'customer.fullName' : undefined;
    case 'business-verification':
      return 'business.businessInfo.registrationNumber';
    case 'beneficial-owner':
      return 'owner.personalInfo.lastName';
    case 'external-transfer':
    case 'beneficiary-verification':
    case 'quote-execution':
      return 'externalAccount.accountInfo.accountNumber';
    case 'uma-destination':
      return 'quote.destination.umaAddress';
    case 'card-transaction':
      return scenario.magic.field === CARD_AUTHORIZATION.field ? 'authorization.merchant.descriptor' : undefined;
    default:
      return undefined;
  }
}

/** Why an existing external account cannot stand in for the scenario's magic one, if it cannot. */
export function externalAccountMismatch(
  scenario: Scenario,
  account: { currency?: unknown; accountInfo?: unknown },
): string | undefined {
  const rule = RECIPE_INPUTS[scenario.recipe].ownExternalAccount;
  if (!rule) return undefined;
  const currency = String(account.currency ?? '');
  if (rule.currencies && !rule.currencies.includes(currency))
    return `it holds ${currency}, and ${scenario.name} pays out ${rule.currencies.join(' or ')} (run a quote.* scenario for another currency)`;
  const identifier = primaryIdentifier((account.accountInfo ?? {}) as Record<string, unknown>);
  if (!identifier) return 'it has no identifier the sandbox reads magic digits from';
  const why = rule.rows(identifier, scenario);
  return why ? `its identifier ${identifier}: ${why}` : undefined;
}
