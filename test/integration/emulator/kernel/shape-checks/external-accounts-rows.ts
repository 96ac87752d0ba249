// External accounts, for customers and the platform: one row per shape rule their handlers dropped.
import { id, post, type Row, without } from './row.js';

const usdInfo = {
  accountType: 'USD_ACCOUNT',
  accountNumber: '123456789',
  routingNumber: '021000021',
};
const person1 = { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' };
const accountWith = (accountInfo: object, currency = 'USD') => ({
  currency,
  accountInfo,
});
const withBeneficiary = (beneficiary: object) => accountWith({ ...usdInfo, beneficiary });
const eurInfo = { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' };
const walletInfo = { accountType: 'SPARK_WALLET', address: 'sp1qwallet' };
const place = { line1: '1 Main St', postalCode: '10001', country: 'US' };
const externalAccounts = (prefix: string): Row[] => [
  post(prefix, accountWith(usdInfo), 'accountInfo.beneficiary', 'required'),
  post(prefix, withBeneficiary({ fullName: 'A B' }), 'accountInfo.beneficiary.beneficiaryType', 'required'),
  post(
    prefix,
    withBeneficiary({ ...person1, beneficiaryType: 'ROBOT' }),
    'accountInfo.beneficiary.beneficiaryType',
    'enum',
  ),
  post(prefix, withBeneficiary({ beneficiaryType: 'INDIVIDUAL' }), 'accountInfo.beneficiary.fullName', 'required'),
  post(prefix, withBeneficiary({ beneficiaryType: 'BUSINESS' }), 'accountInfo.beneficiary.legalName', 'required'),
  post(
    prefix,
    withBeneficiary({ ...person1, countryOfResidence: 'XX' }),
    'accountInfo.beneficiary.countryOfResidence',
    'format',
  ),
  post(prefix, withBeneficiary({ ...person1, nationality: 'EU' }), 'accountInfo.beneficiary.nationality', 'format'),
  ...['line1', 'postalCode', 'country'].map((name) =>
    post(
      prefix,
      withBeneficiary({ ...person1, address: without(place, name) }),
      `accountInfo.beneficiary.address.${name}`,
      'required',
    ),
  ),
  post(
    prefix,
    withBeneficiary({ ...person1, address: { ...place, country: 'XX' } }),
    'accountInfo.beneficiary.address.country',
    'format',
  ),
  post(
    prefix,
    accountWith({ ...eurInfo, beneficiary: person1 }, 'EUR'),
    'accountInfo.beneficiary.countryOfResidence',
    'required',
  ),
  post(
    prefix,
    accountWith({ ...walletInfo, beneficiary: person1 }, 'BTC'),
    'accountInfo.beneficiary.countryOfResidence',
    'required',
  ),
  post(prefix, accountWith(without(walletInfo, 'address'), 'BTC'), 'accountInfo.address', 'required'),
  post(`${prefix}/${id('ExternalAccount')}/challenge`, {}, 'method', 'required'),
  post(`${prefix}/${id('ExternalAccount')}/challenge`, { method: 'SELFIE' }, 'method', 'enum'),
  post(`${prefix}/${id('ExternalAccount')}/verify`, {}, 'signature', 'required'),
  post(
    `${prefix}/${id('ExternalAccount')}/verify`,
    { signature: 's', signatureScheme: 'ecdsa' },
    'signatureScheme',
    'enum',
  ),
];
export const EXTERNAL_ACCOUNT_ROWS: Record<string, Row[]> = {
  'external-accounts': externalAccounts('/customers/external-accounts'),
  'platform external accounts': externalAccounts('/platform/external-accounts'),
};
