/**
 * The public API description's 46 external-account types (ExternalAccountType), as data: the
 * currency an account of each type is created in and the payment rails its response form lists
 * (the description's `<Cur>AccountInfo.paymentRails`). Wallets hold the assets of the network's
 * payment info (`Payment<Network>WalletInfo.assetType`); Spark and Lightning hold BTC, as the
 * description's Spark example and its account-type table say. A SWIFT account may be in any fiat
 * currency. The fields and their rules are the description's request schemas; test/unit checks this
 * table against the digest of the description (test/contract/api-schema.json).
 */
import { CURRENCY_CODES } from './currencies.js';

export interface AccountType {
  /** The currencies an account of this type may be created in (its `currency`). */
  currencies: readonly string[];
  /** The response's `paymentRails` (bank types only). */
  paymentRails?: readonly string[];
  wallet: boolean;
}

const CRYPTO = new Set(['BTC', 'USDC', 'USDT']);

const bank = (currency: string, ...paymentRails: string[]): AccountType => ({
  currencies: [currency],
  paymentRails,
  wallet: false,
});
const wallet = (...assets: string[]): AccountType => ({ currencies: assets, wallet: true });

const MOBILE = 'MOBILE_MONEY';
const BANK = 'BANK_TRANSFER';

export const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  AED_ACCOUNT: bank('AED', BANK),
  BDT_ACCOUNT: bank('BDT', BANK, MOBILE),
  BRL_ACCOUNT: bank('BRL', 'PIX'),
  BWP_ACCOUNT: bank('BWP', MOBILE),
  CAD_ACCOUNT: bank('CAD', BANK),
  CNY_ACCOUNT: bank('CNY', BANK, MOBILE),
  COP_ACCOUNT: bank('COP', BANK, MOBILE),
  DKK_ACCOUNT: bank('DKK', 'SEPA', 'SEPA_INSTANT'),
  EGP_ACCOUNT: bank('EGP', BANK, MOBILE),
  EUR_ACCOUNT: bank('EUR', 'SEPA', 'SEPA_INSTANT'),
  GBP_ACCOUNT: bank('GBP', 'FASTER_PAYMENTS'),
  GHS_ACCOUNT: bank('GHS', BANK, MOBILE),
  GTQ_ACCOUNT: bank('GTQ', BANK),
  HKD_ACCOUNT: bank('HKD', BANK),
  HTG_ACCOUNT: bank('HTG', MOBILE),
  IDR_ACCOUNT: bank('IDR', BANK),
  INR_ACCOUNT: bank('INR', 'UPI', 'NEFT', 'RTGS'),
  JMD_ACCOUNT: bank('JMD', BANK),
  KES_ACCOUNT: bank('KES', MOBILE),
  MWK_ACCOUNT: bank('MWK', MOBILE),
  MXN_ACCOUNT: bank('MXN', 'SPEI'),
  MYR_ACCOUNT: bank('MYR', BANK),
  NGN_ACCOUNT: bank('NGN', BANK),
  PHP_ACCOUNT: bank('PHP', BANK),
  PKR_ACCOUNT: bank('PKR', BANK, MOBILE),
  RWF_ACCOUNT: bank('RWF', MOBILE),
  SGD_ACCOUNT: bank('SGD', 'PAYNOW', 'FAST', BANK),
  SLV_ACCOUNT: bank('SLV', BANK, MOBILE),
  THB_ACCOUNT: bank('THB', BANK),
  TZS_ACCOUNT: bank('TZS', MOBILE),
  UGX_ACCOUNT: bank('UGX', MOBILE),
  USD_ACCOUNT: bank('USD', 'ACH', 'WIRE', 'RTP', 'FEDNOW'),
  VND_ACCOUNT: bank('VND', BANK),
  XAF_ACCOUNT: bank('XAF', MOBILE),
  XOF_ACCOUNT: bank('XOF', MOBILE),
  ZAR_ACCOUNT: bank('ZAR', BANK),
  ZMW_ACCOUNT: bank('ZMW', MOBILE),
  SWIFT_ACCOUNT: { currencies: CURRENCY_CODES.filter((c) => !CRYPTO.has(c)), paymentRails: ['SWIFT'], wallet: false },
  BASE_WALLET: wallet('USDC'),
  ETHEREUM_WALLET: wallet('USDC', 'USDT'),
  LIGHTNING: wallet('BTC'),
  PLASMA_WALLET: wallet('USDT'),
  POLYGON_WALLET: wallet('USDC'),
  SOLANA_WALLET: wallet('USDC', 'USDT'),
  SPARK_WALLET: wallet('BTC'),
  TRON_WALLET: wallet('USDT'),
};

/**
 * The fields an individual beneficiary of a type has beyond the ones every bank type's has (the
 * description's `<Cur>Beneficiary`): CAD asks for a registration number, COP for an identity
 * document. Their rules (COP's document types, the number's length) are the schema check's.
 */
export const INDIVIDUAL_BENEFICIARY_EXTRAS: Readonly<Record<string, readonly string[]>> = {
  CAD_ACCOUNT: ['registrationNumber'],
  COP_ACCOUNT: ['documentType', 'documentNumber'],
};

export const ACCOUNT_TYPE_NAMES: readonly string[] = Object.keys(ACCOUNT_TYPES);
