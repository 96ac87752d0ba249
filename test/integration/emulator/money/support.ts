/**
 * Builders for the money tests: a customer, external accounts of each variant with chosen magic
 * digits, balances read over HTTP, and a funded customer with a connected agent.
 */
import { connectAgent, type TestEmulator } from '../support.js';

export const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', countryOfResidence: 'GB' };

/** An accountInfo of accountType whose primary identifier ends in `digits`. */
export function accountInfo(accountType: string, digits = '000', unique = ''): Record<string, unknown> {
  const six = unique ? unique.padStart(6, '0').slice(-6) : '';
  switch (accountType) {
    case 'USD_ACCOUNT':
      return {
        accountType,
        accountNumber: `${six || '123456'}${digits}`,
        routingNumber: '021000021',
        beneficiary: person,
      };
    case 'EUR_ACCOUNT':
      return { accountType, iban: `DE8937040044${six || '053201'}3${digits}`, beneficiary: person };
    case 'MXN_ACCOUNT':
      return { accountType, clabeNumber: `002010077${six || '777777'}${digits}`, beneficiary: person };
    case 'SPARK_WALLET':
      return { accountType, address: `sp1qsandbox${six || 'wallet'}${digits}`, vaspName: 'Sandbox VASP' };
    case 'LIGHTNING':
      return { accountType, lightningAddress: `ada${six}${digits}@wallet.example.com` };
    default:
      throw new Error(accountType);
  }
}

const CURRENCY: Record<string, string> = {
  USD_ACCOUNT: 'USD',
  EUR_ACCOUNT: 'EUR',
  MXN_ACCOUNT: 'MXN',
  SPARK_WALLET: 'BTC',
  LIGHTNING: 'BTC',
};

export async function newCustomer(
  t: TestEmulator,
  fullName = 'Grace Hopper',
): Promise<{ id: string; usd: string; eur: string }> {
  const created = await t.call('POST', '/customers', {
    body: { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-01-31', nationality: 'US' },
  });
  if (created.status !== 201) throw new Error(`customer: ${created.text}`);
  const list = await t.call('GET', `/customers/internal-accounts?customerId=${created.body.id}`);
  const byCurrency = (code: string) => list.body.data.find((a: any) => a.balance.currency.code === code).id as string;
  return { id: created.body.id, usd: byCurrency('USD'), eur: byCurrency('EUR') };
}

let serial = 0;

/** Creates an external account (asserting 201), its identifier made unique before the digits, and returns its id. */
export async function externalAccount(
  t: TestEmulator,
  customerId: string | undefined,
  accountType: string,
  digits = '000',
): Promise<string> {
  const answer = await t.call('POST', '/customers/external-accounts', {
    body: {
      ...(customerId ? { customerId } : {}),
      currency: CURRENCY[accountType],
      accountInfo: accountInfo(accountType, digits, String(++serial + 100_000 * (process.pid % 9))),
    },
  });
  if (answer.status !== 201) throw new Error(`external account: ${answer.status} ${answer.text}`);
  return answer.body.id;
}

export async function accountBalances(t: TestEmulator, id: string): Promise<{ balance: number; totalBalance: number }> {
  const answer = await t.call('GET', `/internal-accounts/${id}`);
  return { balance: answer.body.balance.amount, totalBalance: answer.body.totalBalance.amount };
}

export async function fund(t: TestEmulator, id: string, amount: number): Promise<void> {
  const answer = await t.call('POST', `/sandbox/internal-accounts/${id}/fund`, { body: { amount } });
  if (answer.status !== 200) throw new Error(`fund: ${answer.text}`);
}

/** The platform's own INTERNAL_FIAT account in currency. */
export async function platformAccount(t: TestEmulator, currency = 'USD'): Promise<string> {
  const list = await t.call('GET', `/platform/internal-accounts?currency=${currency}`);
  return list.body.data[0].id;
}

/** A quote body from an account to an account, locking the sending amount. */
export function accountQuote(
  sourceId: string,
  destinationId: string,
  amount: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    source: { sourceType: 'ACCOUNT', accountId: sourceId },
    destination: { destinationType: 'ACCOUNT', accountId: destinationId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/** Every permission an agent policy can grant. */
export const ALL_AGENT_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];

/** An agent policy granting every permission, run without approval, up to `perTransactionLimit` USD cents a transaction. */
export const autoPolicy = (perTransactionLimit: number): Record<string, unknown> => ({
  permissions: ALL_AGENT_PERMISSIONS,
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit },
});

export interface FundedAgent {
  customerId: string;
  /** The customer's USD internal account. */
  usd: string;
  /** The customer's USD bank (external) account. */
  bank: string;
  bearer: string;
  agentId: string;
}

/**
 * A customer whose USD account holds `funds`, a USD bank account, and an agent named `name`
 * connected for that customer under the policy made from those accounts' ids.
 */
export async function fundedAgent(
  t: TestEmulator,
  funds: number,
  name: string,
  policy: (ids: { usd: string; bank: string }) => Record<string, unknown>,
): Promise<FundedAgent> {
  const c = await newCustomer(t);
  await fund(t, c.usd, funds);
  const bank = await externalAccount(t, c.id, 'USD_ACCOUNT');
  return { customerId: c.id, usd: c.usd, bank, ...(await connectAgent(t, c.id, policy({ usd: c.usd, bank }), name)) };
}

/** A transfer-out body moving `amount` from the agent customer's USD account to its bank account. */
export const payout = (a: Pick<FundedAgent, 'usd' | 'bank'>, amount: number) => ({
  source: { accountId: a.usd },
  destination: { accountId: a.bank },
  amount,
});
