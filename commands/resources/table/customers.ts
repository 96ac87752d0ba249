/** `svc customers …`: the official CLI's customer commands. */
import type { OpFlag, Operation, Rule } from '../operation.js';
import { LIST_FLAGS, TIME_FILTERS } from './shared.js';

const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
const customerId = { syntax: '<customerId>', help: 'Customer:<uuid>', id: 'Customer' };

const ADDRESS: OpFlag[] = [
  { syntax: '--address-line1 <line>', help: 'address line 1', body: 'address.line1' },
  { syntax: '--address-line2 <line>', help: 'address line 2', body: 'address.line2' },
  { syntax: '--address-city <city>', help: 'city', body: 'address.city' },
  { syntax: '--address-state <state>', help: 'state or province', body: 'address.state' },
  { syntax: '--address-postal <code>', help: 'postal code', body: 'address.postalCode' },
  { syntax: '--address-country <country>', help: 'country (ISO 3166-1 alpha-2, e.g. US)', body: 'address.country' },
];
/** An address the service takes has these three (its schema's required fields). */
const ADDRESS_RULE: Rule = {
  given: ADDRESS.map((f) => f.syntax),
  needs: ['--address-line1', '--address-postal', '--address-country'],
};
/** A business customer's required businessInfo fields (the description's BusinessInfo). */
const BUSINESS_RULE: Rule = {
  given: '--type',
  is: '^BUSINESS$',
  needs: ['--legal-name', '--business-country', '--tax-id', '--incorporated-on'],
};

const CONTACT: OpFlag[] = [
  {
    syntax: '--uma-address <address>',
    help: 'UMA address ($name@domain; generated if omitted on create)',
    body: 'umaAddress',
  },
  { syntax: '--currencies <list>', help: 'comma-separated currency codes', type: 'list', body: 'currencies' },
  { syntax: '--email <email>', help: 'email address', body: 'email' },
  { syntax: '--phone-number <phone>', help: 'phone number in E.164 format', body: 'phoneNumber' },
];

const PERSON: OpFlag[] = [
  { syntax: '--full-name <name>', help: 'full name (individual)', body: 'fullName' },
  { syntax: '--birth-date <date>', help: 'birth date YYYY-MM-DD (individual)', type: 'date', body: 'birthDate' },
  { syntax: '--nationality <country>', help: 'nationality, ISO 3166-1 alpha-2 (individual)', body: 'nationality' },
];

const list = (name: string, key: string): OpFlag => ({
  syntax: `--${name} <list>`,
  help: `comma-separated ${name.replace(/-/g, ' ')} (business)`,
  type: 'list',
  body: `businessInfo.${key}`,
});
const BUSINESS: OpFlag[] = [
  { syntax: '--legal-name <name>', help: 'legal name (business)', body: 'businessInfo.legalName' },
  { syntax: '--doing-business-as <name>', help: 'trade name (business)', body: 'businessInfo.doingBusinessAs' },
  { syntax: '--business-country <country>', help: 'country of incorporation (business)', body: 'businessInfo.country' },
  {
    syntax: '--registration-number <number>',
    help: 'registration number (business)',
    body: 'businessInfo.registrationNumber',
  },
  { syntax: '--tax-id <id>', help: 'tax ID (business)', body: 'businessInfo.taxId' },
  {
    syntax: '--incorporated-on <date>',
    help: 'incorporation date YYYY-MM-DD (business)',
    type: 'date',
    body: 'businessInfo.incorporatedOn',
  },
  { syntax: '--entity-type <type>', help: 'entity type, e.g. LLC (business)', body: 'businessInfo.entityType' },
  { syntax: '--business-type <type>', help: 'business type (business)', body: 'businessInfo.businessType' },
  {
    syntax: '--purpose-of-account <purpose>',
    help: 'purpose of account (business)',
    body: 'businessInfo.purposeOfAccount',
  },
  {
    syntax: '--source-of-funds <text>',
    help: 'primary source of funds (business)',
    body: 'businessInfo.sourceOfFunds',
  },
  list('source-of-funds-categories', 'sourceOfFundsCategories'),
  { syntax: '--naics-code <code>', help: 'NAICS code, 2-6 digits (business)', body: 'businessInfo.naicsCode' },
  {
    syntax: '--expected-monthly-transaction-count <bucket>',
    help: 'expected monthly transaction count bucket (business)',
    body: 'businessInfo.expectedMonthlyTransactionCount',
  },
  {
    syntax: '--expected-monthly-transaction-volume <bucket>',
    help: 'expected monthly transaction volume bucket (business)',
    body: 'businessInfo.expectedMonthlyTransactionVolume',
  },
  list('countries-of-operation', 'countriesOfOperation'),
  list('expected-counterparty-countries', 'expectedCounterpartyCountries'),
  list('expected-recipient-jurisdictions', 'expectedRecipientJurisdictions'),
];

const code = (what: string): OpFlag => ({
  syntax: '--code <code>',
  help: `the code the customer received by ${what}`,
  required: true,
  body: 'code',
});

export const customers: Operation[] = [
  {
    noun: 'customers',
    verb: 'list',
    summary: 'list customers',
    method: 'GET',
    path: '/customers',
    list: true,
    flags: [
      ...LIST_FLAGS,
      { syntax: '--platform-id <id>', help: 'filter by platform customer ID', query: 'platformCustomerId' },
      { syntax: '--type <type>', help: 'filter by type', enum: CUSTOMER_TYPES, query: 'customerType' },
      { syntax: '--uma-address <address>', help: 'filter by UMA address', query: 'umaAddress' },
      { syntax: '--region <country>', help: 'filter by region (ISO 3166-1 alpha-2)', query: 'region' },
      { syntax: '--currency <code>', help: 'filter by currency code', type: 'currency', query: 'currency' },
      ...TIME_FILTERS,
      { syntax: '--include-deleted', help: 'include deleted customers', type: 'flag', query: 'isIncludingDeleted' },
    ],
    examples: ['--type INDIVIDUAL --limit 5'],
  },
  {
    noun: 'customers',
    verb: 'get',
    summary: "get a customer's details",
    method: 'GET',
    path: '/customers/{customerId}',
    args: [customerId],
    examples: ['Customer:<uuid>'],
  },
  {
    noun: 'customers',
    verb: 'create',
    summary: 'create a customer',
    method: 'POST',
    path: '/customers',
    flags: [
      {
        syntax: '--platform-id <id>',
        help: "your platform's ID for the customer",
        required: true,
        body: 'platformCustomerId',
      },
      {
        syntax: '--type <type>',
        help: 'customer type',
        enum: CUSTOMER_TYPES,
        default: 'INDIVIDUAL',
        body: 'customerType',
      },
      { syntax: '--region <country>', help: 'region (ISO 3166-1 alpha-2), fixed once created', body: 'region' },
      ...CONTACT,
      ...PERSON,
      { syntax: '--id-type <type>', help: 'identification type, e.g. SSN (individual)', body: 'idType' },
      { syntax: '--identifier <value>', help: 'tax identifier, e.g. an SSN (individual)', body: 'identifier' },
      ...ADDRESS,
      ...BUSINESS,
    ],
    rules: [ADDRESS_RULE, BUSINESS_RULE],
    examples: [
      '--platform-id user-1002 --full-name "Ada Lovelace" --birth-date 1990-01-15 --address-line1 "1 Main St" --address-city Seattle --address-postal 98101 --address-country US',
    ],
  },
  {
    noun: 'customers',
    verb: 'update',
    summary: 'update a customer (a changed email or phone is signed by the active session)',
    method: 'PATCH',
    path: '/customers/{customerId}',
    args: [customerId],
    signed: true,
    flags: [
      {
        syntax: '--type <type>',
        help: 'customer type (the required discriminator)',
        enum: CUSTOMER_TYPES,
        required: true,
        body: 'customerType',
      },
      ...CONTACT,
      ...PERSON,
      ...ADDRESS,
      ...BUSINESS,
    ],
    // An email and a phone change are separate signed calls, so the credentials tied to each follow.
    rules: [ADDRESS_RULE, { atMostOne: ['email', 'phoneNumber'] }],
    examples: ['Customer:<uuid> --type INDIVIDUAL --full-name "Ada King"'],
  },
  {
    noun: 'customers',
    verb: 'delete',
    summary: 'delete a customer',
    method: 'DELETE',
    path: '/customers/{customerId}',
    args: [customerId],
    irreversible: true,
    examples: ['Customer:<uuid> --yes'],
  },
  {
    noun: 'customers',
    verb: 'kyc-link',
    summary: 'make a hosted KYC link for a customer',
    method: 'POST',
    // The argument or the flag (the official README spells it --customer-id): one option each.
    path: '/customers/{customer}/kyc-link',
    args: [{ ...customerId, syntax: '[customer]', orFlag: 'customerId' }],
    emptyBody: true,
    flags: [
      { syntax: '--customer-id <id>', help: 'the customer, instead of the argument', id: 'Customer' },
      {
        syntax: '--redirect-uri <uri>',
        help: 'where the hosted flow sends the customer when done',
        alias: '--redirect-url <uri>',
        body: 'redirectUri',
      },
    ],
    examples: ['Customer:<uuid> --redirect-uri https://example.com/kyc-done'],
  },
  {
    noun: 'customers',
    verb: 'verify-email',
    summary: 'send an email verification code to a customer',
    method: 'POST',
    path: '/customers/{customerId}/verify-email',
    args: [customerId],
    examples: ['Customer:<uuid>'],
  },
  {
    noun: 'customers',
    verb: 'confirm-email',
    summary: "confirm a customer's email verification code",
    method: 'POST',
    path: '/customers/{customerId}/verify-email/confirm',
    args: [customerId],
    flags: [code('email')],
    examples: ['Customer:<uuid> --code 123456'],
  },
  {
    noun: 'customers',
    verb: 'verify-phone',
    summary: 'send a phone verification code to a customer',
    method: 'POST',
    path: '/customers/{customerId}/verify-phone',
    args: [customerId],
    examples: ['Customer:<uuid>'],
  },
  {
    noun: 'customers',
    verb: 'confirm-phone',
    summary: "confirm a customer's phone verification code",
    method: 'POST',
    path: '/customers/{customerId}/verify-phone/confirm',
    args: [customerId],
    flags: [code('SMS')],
    examples: ['Customer:<uuid> --code 123456'],
  },
];
