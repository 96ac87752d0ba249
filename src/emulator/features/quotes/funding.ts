/**
 * Where a real-time-funding quote is paid, per sending currency: invented sandbox accounts in the
 * shape of the description's PaymentInstructions branch for that currency (its Payment<Cur>AccountInfo
 * with the rails it lists; a wallet address for BTC and the stablecoins). Each quote adds its own
 * `reference`. In the sandbox the payment is made with POST /sandbox/send.
 */

const BANK = ['BANK_TRANSFER'];
const MOBILE = ['MOBILE_MONEY'];
const BANK_OR_MOBILE = ['BANK_TRANSFER', 'MOBILE_MONEY'];
const SANDBOX_BANK = 'svc Emulator Sandbox Bank';
const SWIFT = 'SVCEXXFF';
const mobile = (accountType: string, phoneNumber: string, more: Record<string, unknown> = {}) => ({
  accountType,
  phoneNumber,
  provider: 'Sandbox Mobile Money',
  paymentRails: MOBILE,
  ...more,
});
const named = (accountType: string, paymentRails: string[], more: Record<string, unknown> = {}) => ({
  accountType,
  bankName: SANDBOX_BANK,
  paymentRails,
  ...more,
});

export const FUNDING_ACCOUNTS: Readonly<Record<string, Record<string, unknown>>> = {
  AED: { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', paymentRails: BANK },
  ARS: { accountType: 'ARS_ACCOUNT', accountNumber: '0000003100074052501434' },
  BDT: named('BDT_ACCOUNT', BANK_OR_MOBILE),
  BRL: {
    accountType: 'BRL_ACCOUNT',
    qrCode: '00020126580014br.gov.bcb.pix0136svc-emulator-sandbox-pix-key5204000053039865802BR',
  },
  BTC: { accountType: 'SPARK_WALLET', address: 'spark1svcemulatorsandboxfundingaddress', assetType: 'BTC' },
  BWP: mobile('BWP_ACCOUNT', '+26771234567'),
  CAD: {
    accountType: 'CAD_ACCOUNT',
    accountNumber: '1234567',
    bankCode: '001',
    branchCode: '00011',
    paymentRails: BANK,
  },
  CNY: named('CNY_ACCOUNT', BANK_OR_MOBILE),
  COP: { accountType: 'COP_ACCOUNT', paymentUrl: 'https://pay.svc.test/cop' },
  DKK: { accountType: 'DKK_ACCOUNT', iban: 'DK5000400440116243', paymentRails: ['SEPA', 'SEPA_INSTANT'] },
  EGP: named('EGP_ACCOUNT', BANK_OR_MOBILE),
  EUR: {
    accountType: 'EUR_ACCOUNT',
    iban: 'DE89370400440532013000',
    swiftCode: 'SVCEDEFF',
    paymentRails: ['SEPA_INSTANT'],
  },
  GBP: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', sortCode: '601613', paymentRails: ['FASTER_PAYMENTS'] },
  GHS: named('GHS_ACCOUNT', BANK_OR_MOBILE),
  GTQ: named('GTQ_ACCOUNT', BANK, { accountNumber: '1234567890', bankAccountType: 'CHECKING' }),
  HKD: named('HKD_ACCOUNT', BANK, { accountNumber: '123456789', swiftCode: SWIFT }),
  HTG: { accountType: 'HTG_ACCOUNT', phoneNumber: '+50912345678', paymentRails: MOBILE },
  IDR: named('IDR_ACCOUNT', BANK, { accountNumber: '1234567890', swiftCode: SWIFT, phoneNumber: '+628123456789' }),
  INR: { accountType: 'INR_ACCOUNT', vpa: 'svc-emulator@sandbox', paymentRails: ['UPI'] },
  JMD: named('JMD_ACCOUNT', BANK, { accountNumber: '123456789', bankAccountType: 'CHECKING', branchCode: '12345' }),
  KES: mobile('KES_ACCOUNT', '+254712345678'),
  MWK: mobile('MWK_ACCOUNT', '+265991234567'),
  MXN: { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', paymentRails: ['SPEI'] },
  MYR: named('MYR_ACCOUNT', BANK, { accountNumber: '1234567890', swiftCode: SWIFT }),
  NGN: named('NGN_ACCOUNT', BANK, { accountNumber: '0123456789' }),
  PHP: named('PHP_ACCOUNT', BANK, { accountNumber: '12345678' }),
  PKR: named('PKR_ACCOUNT', BANK_OR_MOBILE),
  RWF: mobile('RWF_ACCOUNT', '+250781234567'),
  SGD: { accountType: 'SGD_ACCOUNT', accountNumber: '1234567890', swiftCode: SWIFT, paymentRails: ['PAYNOW', 'FAST'] },
  SLV: { accountType: 'SLV_ACCOUNT', paymentRails: BANK_OR_MOBILE },
  THB: named('THB_ACCOUNT', BANK, { accountNumber: '1234567890', swiftCode: SWIFT }),
  TZS: mobile('TZS_ACCOUNT', '+255712345678'),
  UGX: mobile('UGX_ACCOUNT', '+256712345678'),
  USD: {
    accountType: 'USD_ACCOUNT',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    bankName: SANDBOX_BANK,
    paymentRails: ['RTP', 'FEDNOW'],
  },
  USDC: { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', assetType: 'USDC' },
  USDT: { accountType: 'TRON_WALLET', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', assetType: 'USDT' },
  VND: named('VND_ACCOUNT', BANK, { accountNumber: '1234567890', swiftCode: SWIFT }),
  XAF: mobile('XAF_ACCOUNT', '+237612345678', { region: 'CM' }),
  XOF: mobile('XOF_ACCOUNT', '+221771234567', { region: 'SN' }),
  ZAR: named('ZAR_ACCOUNT', BANK, { accountNumber: '123456789' }),
  ZMW: mobile('ZMW_ACCOUNT', '+260971234567'),
};

/** The currencies a real-time-funding quote may be paid in: every one the description names. */
export const FUNDING_CURRENCIES: readonly string[] = Object.keys(FUNDING_ACCOUNTS);
