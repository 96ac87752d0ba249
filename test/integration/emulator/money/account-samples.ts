/**
 * One valid create body per external-account type of the description (its 46
 * ExternalAccountType values), written from the description's request schemas: the required fields
 * with values that match their patterns. The test checks each against the description before
 * sending it. Identifiers end in 000: no sandbox magic suffix.
 */

const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', countryOfResidence: 'GB' };
const bank = (fields: Record<string, string>, beneficiary: Record<string, unknown> = person) => ({
  ...fields,
  beneficiary,
});
/** The beneficiary the AED, GTQ and JMD schemas want: with an address and a phone number. */
const reachable = {
  ...person,
  phoneNumber: '+442071234000',
  address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
};
const mobile = (phoneNumber: string, more: Record<string, string> = {}) =>
  bank({ phoneNumber, provider: 'Sandbox Mobile Money', ...more });
const SWIFT = 'DEUTDEFF';
const EVM = '0x52908400098527886E0F7030069857D2E4169000';

export interface Sample {
  currency: string;
  accountInfo: Record<string, unknown>;
}

const RAW: Record<string, [string, Record<string, unknown>]> = {
  AED_ACCOUNT: ['AED', bank({ iban: 'AE070331234567890123000' }, reachable)],
  BDT_ACCOUNT: ['BDT', bank({ bankName: 'Sonali Bank', accountNumber: '1234567000' })],
  BRL_ACCOUNT: ['BRL', bank({ pixKey: 'ada000@pix.example.com', pixKeyType: 'EMAIL', taxId: '12345678000' })],
  BWP_ACCOUNT: ['BWP', mobile('+26771234000')],
  CAD_ACCOUNT: ['CAD', bank({ accountNumber: '1234000', bankCode: '001', branchCode: '00011' })],
  CNY_ACCOUNT: ['CNY', bank({ bankName: 'Bank of China', accountNumber: '6217001234000' })],
  COP_ACCOUNT: ['COP', bank({ bankName: 'Bancolombia', accountNumber: '1234567000', bankAccountType: 'SAVINGS' })],
  DKK_ACCOUNT: ['DKK', bank({ iban: 'DK5000400440116000' })],
  EGP_ACCOUNT: ['EGP', bank({ bankName: 'Banque Misr', iban: 'EG380019000500000000263180000' })],
  EUR_ACCOUNT: ['EUR', bank({ iban: 'DE89370400440532013000' })],
  GBP_ACCOUNT: ['GBP', bank({ sortCode: '601613', accountNumber: '31926000' })],
  GHS_ACCOUNT: ['GHS', bank({ bankName: 'GCB Bank', accountNumber: '1234567000' })],
  GTQ_ACCOUNT: [
    'GTQ',
    bank({ bankName: 'Banco Industrial', accountNumber: '1234567000', bankAccountType: 'CHECKING' }, reachable),
  ],
  HKD_ACCOUNT: ['HKD', bank({ bankName: 'HSBC', accountNumber: '123456000', swiftCode: 'HSBCHKHH' })],
  HTG_ACCOUNT: ['HTG', bank({ phoneNumber: '+50912345000' })],
  IDR_ACCOUNT: [
    'IDR',
    bank({
      bankName: 'Bank Mandiri',
      accountNumber: '1234567000',
      swiftCode: 'BMRIIDJA',
      phoneNumber: '+628123456000',
    }),
  ],
  INR_ACCOUNT: ['INR', bank({ vpa: 'ada000@upi' })],
  JMD_ACCOUNT: [
    'JMD',
    bank({ bankName: 'NCB', accountNumber: '123456000', branchCode: '12345', bankAccountType: 'SAVINGS' }, reachable),
  ],
  KES_ACCOUNT: ['KES', mobile('+254712345000')],
  MWK_ACCOUNT: ['MWK', mobile('+265991234000')],
  MXN_ACCOUNT: ['MXN', bank({ clabeNumber: '002010077777777000' })],
  MYR_ACCOUNT: ['MYR', bank({ bankName: 'Maybank', accountNumber: '1234567000', swiftCode: 'MBBEMYKL' })],
  NGN_ACCOUNT: ['NGN', bank({ bankName: 'Access Bank', accountNumber: '0123456000' })],
  PHP_ACCOUNT: ['PHP', bank({ bankName: 'BDO Unibank', accountNumber: '12345000' })],
  PKR_ACCOUNT: ['PKR', bank({ bankName: 'HBL', accountNumber: '1234567000' })],
  RWF_ACCOUNT: ['RWF', mobile('+250781234000')],
  SGD_ACCOUNT: ['SGD', bank({ accountNumber: '1234567000', swiftCode: 'DBSSSGSG' })],
  SLV_ACCOUNT: ['SLV', bank({ bankName: 'Banco Agricola', accountNumber: '1234567000' })],
  THB_ACCOUNT: ['THB', bank({ bankName: 'Bangkok Bank', accountNumber: '1234567000', swiftCode: 'BKKBTHBK' })],
  TZS_ACCOUNT: ['TZS', mobile('+255712345000')],
  UGX_ACCOUNT: ['UGX', mobile('+256712345000')],
  USD_ACCOUNT: ['USD', bank({ accountNumber: '123456000', routingNumber: '021000021' })],
  VND_ACCOUNT: ['VND', bank({ bankName: 'Vietcombank', accountNumber: '1234567000', swiftCode: 'BFTVVNVX' })],
  XAF_ACCOUNT: ['XAF', mobile('+237612345000', { region: 'CM' })],
  XOF_ACCOUNT: ['XOF', mobile('+221771234000', { region: 'SN' })],
  ZAR_ACCOUNT: ['ZAR', bank({ bankName: 'Standard Bank', accountNumber: '123456000' })],
  ZMW_ACCOUNT: ['ZMW', mobile('+260971234000')],
  SWIFT_ACCOUNT: [
    'GBP',
    bank({ swiftCode: SWIFT, bankName: 'Deutsche Bank', country: 'DE', accountNumber: '1234000' }),
  ],
  BASE_WALLET: ['USDC', { address: EVM, vaspName: 'Sandbox VASP' }],
  ETHEREUM_WALLET: ['USDT', { address: EVM, vaspName: 'Sandbox VASP' }],
  LIGHTNING: ['BTC', { lightningAddress: 'ada000@wallet.example.com' }],
  PLASMA_WALLET: ['USDT', { address: EVM, vaspName: 'Sandbox VASP' }],
  POLYGON_WALLET: ['USDC', { address: EVM, vaspName: 'Sandbox VASP' }],
  SOLANA_WALLET: ['USDC', { address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', vaspName: 'Sandbox VASP' }],
  SPARK_WALLET: [
    'BTC',
    { address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu000', vaspName: 'Sandbox VASP' },
  ],
  TRON_WALLET: ['USDT', { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', vaspName: 'Sandbox VASP' }],
};

export const ACCOUNT_SAMPLES: Record<string, Sample> = Object.fromEntries(
  Object.entries(RAW).map(([accountType, [currency, fields]]) => [
    accountType,
    { currency, accountInfo: { accountType, ...fields } },
  ]),
);
