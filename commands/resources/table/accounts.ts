/** `svc accounts internal|external …` and `svc internal-accounts …`: balances, bank accounts and wallets. */
import { ACCOUNT_TYPE_NAMES } from '../../../src/service/account-types.js';
import type { OpFlag, Operation } from '../operation.js';
import { LIST_FLAGS } from './shared.js';

const filters = (what: string): OpFlag[] => [
  ...LIST_FLAGS,
  { syntax: '--customer-id <id>', help: 'filter by customer', id: 'Customer', query: 'customerId' },
  { syntax: '--currency <code>', help: 'filter by currency code', type: 'currency', query: 'currency' },
  { syntax: '--platform', help: `list the platform's ${what} accounts instead of customers'`, type: 'flag' },
];

const info = (flag: string, help: string, key: string, extra: Partial<OpFlag> = {}): OpFlag => ({
  syntax: flag,
  help,
  body: `accountInfo.${key}`,
  ...extra,
});
/**
 * The account fields the description requires of each account type's create request, where svc has
 * a flag for them (its ExternalAccountCreateInfo branches), so an incomplete account is refused
 * here, naming the flags, instead of being sent.
 */
const ACCOUNT_FLAGS_REQUIRED: Record<string, string[]> = {
  USD_ACCOUNT: ['--account-number', '--routing-number'],
  SGD_ACCOUNT: ['--account-number', '--swift-code'],
  HKD_ACCOUNT: ['--account-number', '--bank-name', '--swift-code'],
  MYR_ACCOUNT: ['--account-number', '--bank-name', '--swift-code'],
  THB_ACCOUNT: ['--account-number', '--bank-name', '--swift-code'],
  VND_ACCOUNT: ['--account-number', '--bank-name', '--swift-code'],
  IDR_ACCOUNT: ['--account-number', '--bank-name', '--swift-code'],
  NGN_ACCOUNT: ['--account-number', '--bank-name'],
  PHP_ACCOUNT: ['--account-number', '--bank-name'],
  ZAR_ACCOUNT: ['--account-number', '--bank-name'],
  SWIFT_ACCOUNT: ['--bank-name', '--swift-code'],
  EUR_ACCOUNT: ['--iban'],
  DKK_ACCOUNT: ['--iban'],
  AED_ACCOUNT: ['--iban'],
  MXN_ACCOUNT: ['--clabe'],
  BRL_ACCOUNT: ['--pix-key', '--pix-key-type', '--tax-id'],
};
const beneficiary = (flag: string, help: string, key: string, extra: Partial<OpFlag> = {}): OpFlag =>
  info(`--beneficiary-${flag}`, `beneficiary ${help}`, `beneficiary.${key}`, extra);
const BENEFICIARY_ADDRESS = ['line1', 'line2', 'city', 'state', 'postal', 'country'].map((part) =>
  beneficiary(`address-${part} <value>`, `address ${part}`, `address.${part === 'postal' ? 'postalCode' : part}`),
);
const internalAccount = { syntax: '<internalAccountId>', help: 'InternalAccount:<uuid>', id: 'InternalAccount' };

export const accounts: Operation[] = [
  {
    noun: 'accounts',
    group: 'internal',
    verb: 'list',
    summary: 'list internal accounts and their balances',
    method: 'GET',
    path: '/customers/internal-accounts',
    altPath: { flag: 'platform', path: '/platform/internal-accounts' },
    list: true,
    flags: [
      ...filters('internal'),
      {
        syntax: '--type <type>',
        help: 'filter by account type',
        enum: ['EMBEDDED_WALLET', 'INTERNAL_FIAT', 'INTERNAL_CRYPTO'],
        query: 'type',
      },
    ],
    examples: ['--customer-id Customer:<uuid> --currency USD', '--platform'],
  },
  {
    noun: 'accounts',
    group: 'external',
    verb: 'list',
    summary: 'list external accounts (bank accounts and wallets)',
    method: 'GET',
    path: '/customers/external-accounts',
    altPath: { flag: 'platform', path: '/platform/external-accounts' },
    list: true,
    flags: filters('external'),
    examples: ['--customer-id Customer:<uuid>'],
  },
  {
    noun: 'accounts',
    group: 'external',
    verb: 'create',
    summary: "add a customer's bank account or wallet",
    method: 'POST',
    path: '/customers/external-accounts',
    flags: [
      { syntax: '--customer-id <id>', help: 'the customer', id: 'Customer', required: true, body: 'customerId' },
      {
        syntax: '--currency <code>',
        help: 'currency the account holds (USD, BRL, INR, NGN, BTC, USDC…)',
        type: 'currency',
        required: true,
        body: 'currency',
      },
      info(
        '--account-type <type>',
        'account type, one of the 46 the service lists (USD_ACCOUNT, BRL_ACCOUNT, INR_ACCOUNT, SPARK_WALLET…)',
        'accountType',
        { required: true, enum: [...ACCOUNT_TYPE_NAMES] },
      ),
      info('--account-number <number>', 'bank account number', 'accountNumber'),
      info('--routing-number <number>', 'ABA routing number (USD)', 'routingNumber'),
      info('--clabe <number>', 'CLABE number (MXN)', 'clabeNumber'),
      info('--pix-key <key>', 'PIX key (BRL)', 'pixKey'),
      info('--pix-key-type <type>', 'PIX key type (BRL)', 'pixKeyType', {
        enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'],
      }),
      info('--tax-id <id>', "account holder's tax ID (BRL PIX)", 'taxId'),
      info('--iban <number>', 'IBAN (EUR and others)', 'iban'),
      info('--swift-code <code>', 'SWIFT/BIC code', 'swiftCode'),
      info('--upi-id <id>', 'UPI virtual payment address (INR)', 'vpa'),
      info('--ifsc <code>', 'IFSC code (INR)', 'ifsc'),
      info('--rail <rail>', 'payment rail, e.g. NEFT or RTGS (INR)', 'rail'),
      info('--bank-name <name>', 'bank name', 'bankName'),
      info('--address <addr>', 'wallet address (SPARK_WALLET, SOLANA_WALLET…)', 'address'),
      { syntax: '--platform-account-id <id>', help: "your platform's ID for the account", body: 'platformAccountId' },
      {
        syntax: '--default-uma-deposit-account',
        help: 'make it the default UMA deposit account',
        type: 'flag',
        body: 'defaultUmaDepositAccount',
      },
      beneficiary('type <type>', 'type', 'beneficiaryType', { enum: ['INDIVIDUAL', 'BUSINESS'] }),
      {
        syntax: '--beneficiary-name <name>',
        help: 'beneficiary full name (individual) or legal name (business)',
        bodyBy: {
          flag: 'beneficiaryType',
          paths: { INDIVIDUAL: 'accountInfo.beneficiary.fullName', BUSINESS: 'accountInfo.beneficiary.legalName' },
        },
      },
      beneficiary('birth-date <date>', 'birth date YYYY-MM-DD (individual)', 'birthDate', { type: 'date' }),
      beneficiary('nationality <code>', 'nationality country code (individual)', 'nationality'),
      beneficiary('registration-number <number>', 'registration number (business)', 'registrationNumber'),
      beneficiary('tax-id <id>', 'tax ID (business)', 'taxId'),
      beneficiary('email <email>', 'email', 'email'),
      beneficiary('phone <phone>', 'phone number', 'phoneNumber'),
      beneficiary('country-of-residence <code>', 'country of residence', 'countryOfResidence'),
      ...BENEFICIARY_ADDRESS,
    ],
    rules: [
      { given: '--beneficiary-type', needs: ['--beneficiary-name'] },
      { given: '--beneficiary-name', needs: ['--beneficiary-type'] },
      // Every fiat account type (the *_ACCOUNT discriminators) is paid to a named beneficiary.
      { given: '--account-type', is: '_ACCOUNT$', needs: ['--beneficiary-type', '--beneficiary-name'] },
      ...Object.entries(ACCOUNT_FLAGS_REQUIRED).map(([type, needs]) => ({
        given: '--account-type',
        is: `^${type}$`,
        needs,
      })),
      { given: '--account-type', is: '_WALLET$', needs: ['--address'] },
      {
        given: BENEFICIARY_ADDRESS.map((f) => f.syntax),
        needs: ['--beneficiary-address-line1', '--beneficiary-address-postal', '--beneficiary-address-country'],
      },
    ],
    examples: [
      '--customer-id Customer:<uuid> --currency USD --account-type USD_ACCOUNT --account-number 123456789 --routing-number 021000021 --beneficiary-type INDIVIDUAL --beneficiary-name "Ada Lovelace"',
    ],
  },
  {
    noun: 'internal-accounts',
    verb: 'update',
    summary: "turn an embedded wallet's privacy on or off (signed by the active session)",
    method: 'PATCH',
    path: '/internal-accounts/{internalAccountId}',
    args: [internalAccount],
    signed: true,
    flags: [
      {
        syntax: '--private-enabled <true|false>',
        help: 'embedded wallet privacy',
        type: 'truefalse',
        required: true,
        body: 'privateEnabled',
      },
    ],
    examples: ['InternalAccount:<uuid> --private-enabled true'],
  },
  {
    noun: 'internal-accounts',
    verb: 'export',
    summary: "export an embedded wallet's credentials, sealed to your key (signed by the active session)",
    method: 'POST',
    path: '/internal-accounts/{internalAccountId}/export',
    args: [internalAccount],
    signed: true,
    flags: [
      {
        syntax: '--client-public-key <hex>',
        help: 'your P-256 public key, uncompressed SEC1 hex (04…); keep the private key to decrypt',
        required: true,
        body: 'clientPublicKey',
      },
    ],
    examples: ['InternalAccount:<uuid> --client-public-key 04<128 hex>'],
  },
];
