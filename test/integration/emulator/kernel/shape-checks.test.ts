/**
 * Handlers check only business rules: every shape rule they no longer check themselves (required
 * fields, types, enums, patterns, lengths the description declares) is refused by the schema check
 * that runs before them, naming the field and the rule. One row per rule a handler dropped, so a
 * validator that stopped enforcing one fails here, not in a handler that trusted it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestEmulator, testEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const ZERO = '00000000-0000-0000-0000-000000000000';
const id = (kind: string) => encodeURIComponent(`${kind}:${ZERO}`);
const KEY = { 'Idempotency-Key': 'shape-checks' };

interface Row {
  method: string;
  /** With its query, when the rule is a query parameter's. */
  path: string;
  body?: object;
  field: string;
  rule: string;
}

const mint = (body: object) => ({ method: 'POST', path: `/stablecoins/${id('Stablecoin')}/mints`, body });
const burn = (body: object) => ({ method: 'POST', path: `/stablecoins/${id('Stablecoin')}/burns`, body });
const mintBase = { amount: '100', fundingSource: { type: 'WIRE' }, destination: { accountId: 'x' } };
const burnBase = {
  amount: '100',
  source: { type: 'PROVIDER_INTERNAL_BALANCE' },
  destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: 'x', rail: 'WIRE' },
};
const link = { provider: 'BRALE', apiClientId: 'a', apiClientSecret: 's' };
const coin = { providerTokenIdentifier: 'T', networkTokenIdentifier: 'n', network: 'SPARK' };
const without = (body: object, name: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== name));

const quote = {
  source: { sourceType: 'ACCOUNT', accountId: 'x' },
  destination: { destinationType: 'ACCOUNT', accountId: 'y' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 100,
};
const quoteRow = (body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: '/quotes',
  body,
  field,
  rule,
});
const transfer = { source: { accountId: 'x' }, destination: { accountId: 'y' }, amount: 100 };
const transferRow = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path,
  body,
  field,
  rule,
});

const person = {
  firstName: 'Ada',
  lastName: 'Byron',
  birthDate: '1990-01-02',
  nationality: 'US',
  address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
  idType: 'SSN',
  identifier: '123',
};
const owner = { customerId: 'x', roles: ['UBO'], ownershipPercentage: 30, personalInfo: person };
const ownerRow = (body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: '/beneficial-owners',
  body,
  field,
  rule,
});
const ownerPatch = (body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path: `/beneficial-owners/${id('BeneficialOwner')}`,
  body,
  field,
  rule,
});
const personWith = (changes: object) => ({ ...owner, personalInfo: { ...person, ...changes } });

const card = { cardholderId: 'x', form: 'VIRTUAL', fundingSources: ['y'] };
const simulate = (kind: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: `/sandbox/cards/${id('Card')}/simulate/${kind}`,
  body,
  field,
  rule,
});
const authorization = { amount: 100, currency: { code: 'USD' }, merchant: { descriptor: 'Shop' } };
const send = { quoteId: 'q', currencyCode: 'USD' };
const receive = {
  senderUmaAddress: '$a@b.test',
  customerId: 'c',
  receivingCurrencyCode: 'USD',
  receivingCurrencyAmount: 5,
};

const fee = {
  internalAccountId: 'a',
  currency: 'USDC',
  cryptoNetwork: 'SOLANA',
  amount: 5,
  destinationAddress: 'd'.repeat(30),
};
const post = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path,
  body,
  field,
  rule,
});
const get = (path: string, field: string, rule: string): Row => ({ method: 'GET', path, field, rule });

const policy = {
  permissions: ['VIEW_TRANSACTIONS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 100 },
};
const agent = { name: 'A', customerId: 'c', policy };
const policyWith = (changes: object) => ({ ...agent, policy: { ...policy, ...changes } });
const agentPolicy = `/agents/${id('Agent')}/policy`;
const patch = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path,
  body,
  field,
  rule,
});
const delegated = { cardId: 'c', internalAccountId: 'a', nickname: 'n' };

const ROWS: Record<string, Row[]> = {
  agents: [
    post('/agents', without(agent, 'name'), 'name', 'required'),
    post('/agents', without(agent, 'customerId'), 'customerId', 'required'),
    post('/agents', without(agent, 'policy'), 'policy', 'required'),
    ...['permissions', 'defaultExecutionMode', 'spendingLimits'].map((name) =>
      post('/agents', { ...agent, policy: without(policy, name) }, `policy.${name}`, 'required'),
    ),
    post('/agents', policyWith({ permissions: ['FLY'] }), 'policy.permissions[0]', 'enum'),
    post('/agents', policyWith({ defaultExecutionMode: 'SOMETIMES' }), 'policy.defaultExecutionMode', 'enum'),
    post(
      '/agents',
      policyWith({ spendingLimits: { currency: 'USD' } }),
      'policy.spendingLimits.perTransactionLimit',
      'required',
    ),
    post(
      '/agents',
      policyWith({ spendingLimits: { perTransactionLimit: 1 } }),
      'policy.spendingLimits.currency',
      'required',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: {} } }),
      'policy.accountRestrictions.accountRules',
      'type',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: [5] } }),
      'policy.accountRestrictions.accountRules[0]',
      'type',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: [{}] } }),
      'policy.accountRestrictions.accountRules[0].accountId',
      'required',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: [{ accountId: 'a', executionMode: 'NEVER' }] } }),
      'policy.accountRestrictions.accountRules[0].executionMode',
      'enum',
    ),
    patch(agentPolicy, { permissions: ['FLY'] }, 'permissions[0]', 'enum'),
    patch(agentPolicy, { defaultExecutionMode: 'SOMETIMES' }, 'defaultExecutionMode', 'enum'),
    patch(
      agentPolicy,
      { accountRestrictions: { accountRules: [{}] } },
      'accountRestrictions.accountRules[0].accountId',
      'required',
    ),
  ],
  'delegated-keys': [
    ...Object.keys(delegated).map((name) => post('/auth/delegated-keys', without(delegated, name), name, 'required')),
    post('/auth/delegated-keys', { ...delegated, nickname: '' }, 'nickname', 'minLength'),
    post('/auth/delegated-keys', { ...delegated, nickname: 'n'.repeat(257) }, 'nickname', 'maxLength'),
  ],
  accounts: [
    get('/customers/internal-accounts?type=SAVINGS', 'type', 'enum'),
    get('/platform/internal-accounts?type=SAVINGS', 'type', 'enum'),
    post(`/sandbox/internal-accounts/${id('InternalAccount')}/fund`, {}, 'amount', 'required'),
    post(`/sandbox/internal-accounts/${id('InternalAccount')}/fund`, { amount: 100_000_000_001 }, 'amount', 'maximum'),
  ],
  crypto: Object.keys(fee).map((name) => post('/crypto/estimate-withdrawal-fee', without(fee, name), name, 'required')),
  invitations: [
    post('/invitations', {}, 'inviterUma', 'required'),
    post('/invitations', { inviterUma: '$a@b.test', expiresAt: 'March 7, 2099 10:00' }, 'expiresAt', 'format'),
    post('/invitations/NOSUCHCODE/claim', {}, 'inviteeUma', 'required'),
  ],
  directories: [
    get('/discoveries?country=XX', 'country', 'format'),
    get('/uma-providers?countryCode=EU', 'countryCode', 'format'),
    get('/uma-providers?hasBlockedProviders=maybe', 'hasBlockedProviders', 'type'),
    get('/uma-providers?sortOrder=up', 'sortOrder', 'enum'),
  ],
  verifications: [
    post('/verifications', {}, 'customerId', 'required'),
    get('/verifications?verificationStatus=DONE', 'verificationStatus', 'enum'),
  ],
  tokens: [
    post('/tokens', { permissions: ['VIEW'] }, 'name', 'required'),
    post('/tokens', { name: 'n' }, 'permissions', 'required'),
    post('/tokens', { name: 'n', permissions: ['ALL'] }, 'permissions[0]', 'enum'),
  ],
  cards: [
    { method: 'POST', path: '/cards', body: without(card, 'cardholderId'), field: 'cardholderId', rule: 'required' },
    { method: 'POST', path: '/cards', body: without(card, 'form'), field: 'form', rule: 'required' },
    { method: 'POST', path: '/cards', body: { ...card, form: 'PLASTIC' }, field: 'form', rule: 'enum' },
    {
      method: 'POST',
      path: '/cards',
      body: without(card, 'fundingSources'),
      field: 'fundingSources',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/cards',
      body: { ...card, fundingSources: [] },
      field: 'fundingSources',
      rule: 'minItems',
    },
    {
      method: 'POST',
      path: '/cards',
      body: { ...card, maxSpendPerTransaction: 0 },
      field: 'maxSpendPerTransaction',
      rule: 'minimum',
    },
    { method: 'PATCH', path: `/cards/${id('Card')}`, body: { state: 'MELTED' }, field: 'state', rule: 'enum' },
    {
      method: 'PATCH',
      path: `/cards/${id('Card')}`,
      body: { fundingSources: [] },
      field: 'fundingSources',
      rule: 'minItems',
    },
  ],
  'card-transactions': [
    simulate('authorization', without(authorization, 'merchant'), 'merchant', 'required'),
    simulate('authorization', { ...authorization, merchant: {} }, 'merchant.descriptor', 'required'),
    simulate(
      'authorization',
      { ...authorization, merchant: { descriptor: 'Shop', country: 'XX' } },
      'merchant.country',
      'format',
    ),
    simulate('authorization', without(authorization, 'amount'), 'amount', 'required'),
    simulate('authorization', without(authorization, 'currency'), 'currency', 'required'),
    simulate('balance_inquiry', {}, 'merchant', 'required'),
    simulate('clearing', { amount: 1 }, 'cardTransactionId', 'required'),
    simulate('clearing', { cardTransactionId: 't' }, 'amount', 'required'),
    simulate('return', { cardTransactionId: 't' }, 'amount', 'required'),
    simulate('return_reversal', {}, 'cardTransactionId', 'required'),
  ],
  payments: [
    { method: 'POST', path: '/sandbox/send', body: without(send, 'quoteId'), field: 'quoteId', rule: 'required' },
    {
      method: 'POST',
      path: '/sandbox/send',
      body: without(send, 'currencyCode'),
      field: 'currencyCode',
      rule: 'required',
    },
    ...['senderUmaAddress', 'receivingCurrencyCode', 'receivingCurrencyAmount'].map(
      (name): Row => ({
        method: 'POST',
        path: '/sandbox/uma/receive',
        body: without(receive, name),
        field: name,
        rule: 'required',
      }),
    ),
  ],
  'beneficial-owners': [
    ownerRow(without(owner, 'customerId'), 'customerId', 'required'),
    ownerRow(without(owner, 'roles'), 'roles', 'required'),
    ownerRow({ ...owner, roles: ['KING'] }, 'roles[0]', 'enum'),
    ownerRow(without(owner, 'ownershipPercentage'), 'ownershipPercentage', 'required'),
    ownerRow({ ...owner, ownershipPercentage: 101 }, 'ownershipPercentage', 'maximum'),
    ownerRow({ ...owner, ownershipPercentage: -1 }, 'ownershipPercentage', 'minimum'),
    ownerRow(without(owner, 'personalInfo'), 'personalInfo', 'required'),
    ...['firstName', 'lastName', 'birthDate', 'nationality', 'idType', 'identifier'].map((name) =>
      ownerRow({ ...owner, personalInfo: without(person, name) }, `personalInfo.${name}`, 'required'),
    ),
    ownerRow(personWith({ birthDate: '1990-02-30' }), 'personalInfo.birthDate', 'format'),
    ownerRow(personWith({ nationality: 'XX' }), 'personalInfo.nationality', 'format'),
    ownerRow(personWith({ email: 'nobody' }), 'personalInfo.email', 'format'),
    ownerRow(personWith({ phoneNumber: '555' }), 'personalInfo.phoneNumber', 'pattern'),
    ownerRow(personWith({ idType: 'PASSPORT' }), 'personalInfo.idType', 'enum'),
    ownerPatch({ roles: ['KING'] }, 'roles[0]', 'enum'),
    ownerPatch({ ownershipPercentage: 101 }, 'ownershipPercentage', 'maximum'),
    ownerPatch({ personalInfo: { idType: 'PASSPORT' } }, 'personalInfo.idType', 'enum'),
    ownerPatch({ personalInfo: { birthDate: 'yesterday' } }, 'personalInfo.birthDate', 'format'),
    { method: 'GET', path: '/beneficial-owners', field: 'customerId', rule: 'required' },
  ],
  transactions: [
    { method: 'GET', path: '/transactions?status=DONE', field: 'status', rule: 'enum' },
    { method: 'GET', path: '/transactions?type=SIDEWAYS', field: 'type', rule: 'enum' },
    { method: 'GET', path: '/transactions?sortOrder=up', field: 'sortOrder', rule: 'enum' },
    { method: 'GET', path: '/transactions?startDate=2020-02-30T00:00:00Z', field: 'startDate', rule: 'format' },
    { method: 'GET', path: '/transactions?endDate=tomorrow', field: 'endDate', rule: 'format' },
  ],
  quotes: [
    quoteRow(without(quote, 'source'), 'source', 'required'),
    quoteRow({ ...quote, source: {} }, 'source.sourceType', 'required'),
    quoteRow({ ...quote, source: { sourceType: 'CARD' } }, 'source.sourceType', 'enum'),
    quoteRow({ ...quote, source: { sourceType: 'ACCOUNT' } }, 'source.accountId', 'required'),
    quoteRow({ ...quote, source: { sourceType: 'REALTIME_FUNDING' } }, 'source.currency', 'required'),
    quoteRow(without(quote, 'destination'), 'destination', 'required'),
    quoteRow({ ...quote, destination: {} }, 'destination.destinationType', 'required'),
    quoteRow({ ...quote, destination: { destinationType: 'CARD' } }, 'destination.destinationType', 'enum'),
    quoteRow({ ...quote, destination: { destinationType: 'ACCOUNT' } }, 'destination.accountId', 'required'),
    quoteRow({ ...quote, destination: { destinationType: 'UMA_ADDRESS' } }, 'destination.umaAddress', 'required'),
    quoteRow(
      { ...quote, destination: { ...quote.destination, paymentRail: 'PIGEON' } },
      'destination.paymentRail',
      'enum',
    ),
    quoteRow(without(quote, 'lockedCurrencySide'), 'lockedCurrencySide', 'required'),
    quoteRow({ ...quote, lockedCurrencySide: 'BOTH' }, 'lockedCurrencySide', 'enum'),
    quoteRow(without(quote, 'lockedCurrencyAmount'), 'lockedCurrencyAmount', 'required'),
    quoteRow({ ...quote, lockedCurrencyAmount: 9_000_000_000_000_001 }, 'lockedCurrencyAmount', 'maximum'),
    quoteRow({ ...quote, remittanceInformation: 'r'.repeat(81) }, 'remittanceInformation', 'maxLength'),
    quoteRow({ ...quote, purposeOfPayment: 'FUN' }, 'purposeOfPayment', 'enum'),
  ],
  transfers: [
    ...['/transfer-in', '/transfer-out'].flatMap((path) => [
      transferRow(path, without(transfer, 'source'), 'source', 'required'),
      transferRow(path, { ...transfer, source: {} }, 'source.accountId', 'required'),
      transferRow(path, without(transfer, 'destination'), 'destination', 'required'),
      transferRow(path, { ...transfer, destination: {} }, 'destination.accountId', 'required'),
    ]),
    transferRow(
      '/transfer-out',
      { ...transfer, destination: { accountId: 'y', paymentRail: 'PIGEON' } },
      'destination.paymentRail',
      'enum',
    ),
    transferRow(
      '/transfer-out',
      { ...transfer, remittanceInformation: 'r'.repeat(81) },
      'remittanceInformation',
      'maxLength',
    ),
    transferRow('/transfer-out', { ...transfer, purposeOfPayment: 'FUN' }, 'purposeOfPayment', 'enum'),
  ],
  stablecoins: [
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'provider'),
      field: 'provider',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: { ...link, provider: 'OTHER' },
      field: 'provider',
      rule: 'enum',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientId'),
      field: 'apiClientId',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientSecret'),
      field: 'apiClientSecret',
      rule: 'required',
    },
    { method: 'GET', path: '/stablecoin-provider-accounts?provider=OTHER', field: 'provider', rule: 'enum' },
    { method: 'GET', path: '/stablecoin-provider-accounts?status=GONE', field: 'status', rule: 'enum' },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'providerTokenIdentifier'),
      field: 'providerTokenIdentifier',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'networkTokenIdentifier'),
      field: 'networkTokenIdentifier',
      rule: 'required',
    },
    { method: 'POST', path: '/stablecoins', body: without(coin, 'network'), field: 'network', rule: 'required' },
    { method: 'POST', path: '/stablecoins', body: { ...coin, network: 'ETHEREUM' }, field: 'network', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?issuanceStatus=DONE', field: 'issuanceStatus', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?gridOperationsStatus=DONE', field: 'gridOperationsStatus', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?provider=OTHER', field: 'provider', rule: 'enum' },
    { ...mint(without(mintBase, 'amount')), field: 'amount', rule: 'required' },
    { ...mint({ ...mintBase, amount: '1.5' }), field: 'amount', rule: 'pattern' },
    { ...mint(without(mintBase, 'fundingSource')), field: 'fundingSource', rule: 'required' },
    { ...mint({ ...mintBase, fundingSource: {} }), field: 'fundingSource.type', rule: 'required' },
    { ...mint({ ...mintBase, fundingSource: { type: 'CASH' } }), field: 'fundingSource.type', rule: 'enum' },
    {
      ...mint({ ...mintBase, fundingSource: { type: 'ACH_DEBIT' } }),
      field: 'fundingSource.externalAccountId',
      rule: 'required',
    },
    { ...mint(without(mintBase, 'destination')), field: 'destination', rule: 'required' },
    { ...mint({ ...mintBase, destination: {} }), field: 'destination.accountId', rule: 'required' },
    { ...mint({ ...mintBase, description: 'd'.repeat(1025) }), field: 'description', rule: 'maxLength' },
    { ...burn(without(burnBase, 'amount')), field: 'amount', rule: 'required' },
    { ...burn(without(burnBase, 'source')), field: 'source', rule: 'required' },
    { ...burn({ ...burnBase, source: { type: 'CASH' } }), field: 'source.type', rule: 'enum' },
    { ...burn(without(burnBase, 'destination')), field: 'destination', rule: 'required' },
    {
      ...burn({ ...burnBase, destination: { ...burnBase.destination, type: 'WALLET' } }),
      field: 'destination.type',
      rule: 'enum',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'type') }),
      field: 'destination.type',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'externalAccountId') }),
      field: 'destination.externalAccountId',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'rail') }),
      field: 'destination.rail',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: { ...burnBase.destination, rail: 'PIGEON' } }),
      field: 'destination.rail',
      rule: 'enum',
    },
    { ...burn({ ...burnBase, description: 'd'.repeat(1025) }), field: 'description', rule: 'maxLength' },
    {
      method: 'GET',
      path: `/stablecoins/${id('Stablecoin')}/operations?operationType=SWAP`,
      field: 'operationType',
      rule: 'enum',
    },
  ],
};

// External accounts, SCA and auth (issue 34 sweep): one row per shape rule their handlers dropped.
const usdInfo = { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' };
const person1 = { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' };
const accountWith = (accountInfo: object, currency = 'USD') => ({ currency, accountInfo });
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
ROWS['external-accounts'] = externalAccounts('/customers/external-accounts');
ROWS['platform external accounts'] = externalAccounts('/platform/external-accounts');
const sca = (path: string) => `/sca/${path}?customerId=${id('Customer')}`;
const ip = { endUserIpAddress: '192.0.2.1' };
const confirmTrust = (verb: string): Row[] => [
  post(`/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`, {}, 'code', 'required'),
  post(`/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`, { code: 5 }, 'code', 'type'),
  post(
    `/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`,
    { passkeyAssertion: {} },
    'origin',
    'required',
  ),
];
ROWS.sca = [
  get('/sca/factors', 'customerId', 'required'),
  post(sca('factors'), {}, 'type', 'required'),
  post(sca('factors'), { type: 'SMS_OTP' }, 'type', 'enum'),
  post(sca('factors/confirm'), {}, 'type', 'required'),
  post(sca('factors/confirm'), { type: 'HOTP' }, 'type', 'enum'),
  post(sca('factors/confirm'), { type: 'TOTP', code: '1' }, 'secret', 'required'),
  post(sca('factors/confirm'), { type: 'TOTP', secret: 's' }, 'code', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', credential: {} }, 'origin', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', origin: 'o' }, 'credential', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', origin: 'o', credential: 'c' }, 'credential', 'type'),
  post(sca('login/start'), {}, 'factor', 'required'),
  post(sca('login/start'), { factor: 'EMAIL_OTP' }, 'factor', 'enum'),
  post(sca('login/complete'), { ...ip, code: '1' }, 'factor', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'EMAIL_OTP', code: '1' }, 'factor', 'enum'),
  post(sca('login/complete'), { factor: 'SMS_OTP', code: '1' }, 'endUserIpAddress', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'SMS_OTP' }, 'code', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'PASSKEY', passkeyAssertion: {} }, 'origin', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'SMS_OTP', code: 5 }, 'code', 'type'),
  post(sca('record-event'), {}, 'eventType', 'required'),
  post(sca('record-event'), { eventType: 'LOGIN' }, 'eventType', 'enum'),
  post(sca('factors/reset'), {}, 'factor', 'required'),
  post(sca('factors/reset'), { factor: 'EMAIL_OTP' }, 'factor', 'enum'),
  post(sca(`factors/reset/${id('ScaReset')}/complete`), { mobile: { number: '1' } }, 'mobile.countryCode', 'required'),
  post(sca(`factors/reset/${id('ScaReset')}/complete`), { mobile: { countryCode: '+1' } }, 'mobile.number', 'required'),
  ...confirmTrust('trust'),
  ...confirmTrust('untrust'),
];
const attestation = { credentialId: 'c', clientDataJson: 'd', attestationObject: 'o' };
const passkey = { type: 'PASSKEY', accountId: 'a', nickname: 'n', challenge: 'c', attestation };
const assertion = { credentialId: 'c', clientDataJson: 'd', authenticatorData: 'a', signature: 's' };
const verify = `/auth/credentials/${id('AuthMethod')}/verify`;
ROWS.auth = [
  get('/auth/credentials', 'accountId', 'required'),
  post('/auth/credentials', { accountId: 'a' }, 'type', 'required'),
  post('/auth/credentials', { type: 'PIN', accountId: 'a' }, 'type', 'enum'),
  post('/auth/credentials', { type: 'EMAIL_OTP' }, 'accountId', 'required'),
  post('/auth/credentials', { type: 'OAUTH', accountId: 'a' }, 'oidcToken', 'required'),
  ...['nickname', 'challenge', 'attestation'].map((name) =>
    post('/auth/credentials', without(passkey, name), name, 'required'),
  ),
  post('/auth/credentials', { ...passkey, nickname: null }, 'nickname', 'type'),
  ...Object.keys(attestation).map((name) =>
    post(
      '/auth/credentials',
      { ...passkey, attestation: without(attestation, name) },
      `attestation.${name}`,
      'required',
    ),
  ),
  post(
    '/auth/credentials',
    { ...passkey, attestation: { ...attestation, transports: ['wifi'] } },
    'attestation.transports[0]',
    'enum',
  ),
  post(verify, {}, 'type', 'required'),
  post(verify, { type: 'PIN' }, 'type', 'enum'),
  post(verify, { type: 'EMAIL_OTP' }, 'encryptedOtpBundle', 'required'),
  post(verify, { type: 'SMS_OTP', encryptedOtpBundle: 5 }, 'encryptedOtpBundle', 'type'),
  post(verify, { type: 'OAUTH', clientPublicKey: `02${'a'.repeat(64)}` }, 'oidcToken', 'required'),
  post(verify, { type: 'OAUTH', oidcToken: 't' }, 'clientPublicKey', 'required'),
  post(verify, { type: 'PASSKEY' }, 'assertion', 'required'),
  ...Object.keys(assertion).map((name) =>
    post(verify, { type: 'PASSKEY', assertion: without(assertion, name) }, `assertion.${name}`, 'required'),
  ),
];

// Quote execute, transaction decisions, customer update, sessions, contact verification (h-sweep2).
const customerPatch = (body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path: `/customers/${id('Customer')}`,
  body,
  field,
  rule,
});
const individual = { customerType: 'INDIVIDUAL' };
const business = { customerType: 'BUSINESS' };
const address = { line1: '1 Main St', city: 'Springfield', postalCode: '10001', country: 'US' };
const businessInfo = { legalName: 'Acme', country: 'US', taxId: '12-3456789', incorporatedOn: '2020-01-02' };
const sessionRefresh = `/auth/sessions/${id('Session')}/refresh`;
const SWEEP2_ROWS: Record<string, Row[]> = {
  'quote execute and authorize': [
    post(`/quotes/${id('Quote')}/execute`, { scaFactor: 'TOTP' }, 'scaFactor', 'enum'),
    post(`/quotes/${id('Quote')}/execute`, { scaFactor: 'EMAIL' }, 'scaFactor', 'enum'),
    post(`/quotes/${id('Quote')}/authorize`, { code: '1', endUserIpAddress: 5 }, 'endUserIpAddress', 'type'),
  ],
  'customer update': [
    customerPatch({ fullName: 'Ada' }, 'customerType', 'required'),
    customerPatch({ customerType: 'ROBOT' }, 'customerType', 'enum'),
    customerPatch({ ...individual, email: 'nobody' }, 'email', 'format'),
    customerPatch({ ...individual, phoneNumber: '555' }, 'phoneNumber', 'pattern'),
    customerPatch({ ...individual, birthDate: '1990-02-30' }, 'birthDate', 'format'),
    customerPatch({ ...individual, nationality: 'XX' }, 'nationality', 'format'),
    ...['line1', 'postalCode', 'country'].map((name) =>
      customerPatch({ ...individual, address: without(address, name) }, `address.${name}`, 'required'),
    ),
    customerPatch({ ...individual, address: { ...address, country: 'EU' } }, 'address.country', 'format'),
    customerPatch({ ...business, businessInfo: { country: 'XX' } }, 'businessInfo.country', 'format'),
    customerPatch({ ...business, businessInfo: { incorporatedOn: 'soon' } }, 'businessInfo.incorporatedOn', 'format'),
    customerPatch({ ...business, businessInfo: { entityType: 'GUILD' } }, 'businessInfo.entityType', 'enum'),
    customerPatch(
      { ...business, businessInfo: { countriesOfOperation: ['XX'] } },
      'businessInfo.countriesOfOperation[0]',
      'format',
    ),
    // The readers are POST /customers' too: what they no longer require at creation.
    post('/customers', business, 'businessInfo', 'required'),
    ...['legalName', 'country', 'taxId', 'incorporatedOn'].map((name) =>
      post(
        '/customers',
        { ...business, businessInfo: without(businessInfo, name) },
        `businessInfo.${name}`,
        'required',
      ),
    ),
    post('/customers', { ...individual, email: 'nobody' }, 'email', 'format'),
    post('/customers', { ...individual, address: without(address, 'line1') }, 'address.line1', 'required'),
    // And the beneficial owners' address reader's.
    ownerRow({ ...owner, personalInfo: without(person, 'address') }, 'personalInfo.address', 'required'),
  ],
  sessions: [get('/auth/sessions', 'accountId', 'required'), post(sessionRefresh, {}, 'clientPublicKey', 'required')],
  'contact verification': [
    post(`/customers/${id('Customer')}/verify-email/confirm`, {}, 'code', 'required'),
    post(`/customers/${id('Customer')}/verify-phone/confirm`, {}, 'code', 'required'),
  ],
  'transaction decisions': [
    post(`/transactions/${id('Transaction')}/approve`, { receiverCustomerInfo: 'x' }, 'receiverCustomerInfo', 'type'),
  ],
};

describe.each([...Object.entries(ROWS), ...Object.entries(SWEEP2_ROWS)])(
  '%s: the shape rules its handlers leave to the schema check',
  (_area, rows) => {
    it.each(rows.map((r) => [`${r.method} ${r.path} ${r.field} ${r.rule}`, r] as const))('%s', async (_name, r) => {
      const answer = await t.call(r.method, r.path, {
        headers: KEY,
        ...(r.body !== undefined ? { body: r.body } : {}),
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.code).toBe('INVALID_INPUT');
      expect(answer.body.details.errors, answer.text).toContainEqual(
        expect.objectContaining({ field: r.field, rule: r.rule }),
      );
    });
  },
);
