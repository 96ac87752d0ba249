/**
 * The money rows of the spec's "Sandbox magic values": external-account transfers, beneficiary
 * name verification, quote execution to an external account, and the UMA destination addresses.
 * Failure reasons are the public API description's enum values (api-facts.md "Transactions"); the
 * spec gives only the behaviour.
 */
import type { SuffixTable } from './suffix-table.js';

const SECOND = 1000;

/** A transfer's course: `delayMs` before it settles (0: at once), then `status`, with `failureReason` when it fails. */
export interface TransferOutcome {
  status: 'COMPLETED' | 'FAILED';
  delayMs: number;
  failureReason?: string;
}

/** Last 3 digits of the primary identifier (account number, IBAN, CLABE, Spark wallet; username part before a domain). */
export const EXTERNAL_ACCOUNT_TRANSFER: SuffixTable<TransferOutcome> = {
  name: 'External account transfers',
  field: 'primary account identifier',
  length: 3,
  rows: [
    {
      suffix: '002',
      outcome: { status: 'FAILED', delayMs: 0, failureReason: 'ACCOUNT_CANNOT_RECEIVE' },
      spec: 'insufficient funds; the transfer fails immediately',
    },
    {
      suffix: '003',
      outcome: { status: 'FAILED', delayMs: 0, failureReason: 'ACCOUNT_INVALID' },
      spec: 'account closed or invalid; fails immediately',
    },
    {
      suffix: '004',
      outcome: { status: 'FAILED', delayMs: 0, failureReason: 'COUNTERPARTY_POST_TX_FAILED' },
      spec: 'the bank rejects the transfer',
    },
    {
      suffix: '005',
      outcome: { status: 'FAILED', delayMs: 30 * SECOND, failureReason: 'QUOTE_EXECUTION_FAILED' },
      spec: 'stays pending about 30 seconds, then fails',
    },
  ],
  otherwise: { outcome: { status: 'COMPLETED', delayMs: 0 }, spec: 'success' },
};

export type BeneficiaryVerificationStatus =
  | 'MATCHED'
  | 'NOT_MATCHED'
  | 'PARTIAL_MATCH'
  | 'PENDING'
  | 'UNSUPPORTED'
  | 'CHECKED_BY_RECEIVING_FI';

/** `INVALID_ACCOUNT`: the call is refused with 400 (suffix 105). Suffix range 1xx, separate from the others. */
export const BENEFICIARY_NAME_VERIFICATION: SuffixTable<BeneficiaryVerificationStatus | 'INVALID_ACCOUNT'> = {
  name: 'Beneficiary name verification',
  field: 'primary account identifier',
  length: 3,
  rows: [
    { suffix: '102', outcome: 'NOT_MATCHED', spec: 'valid account, name differs' },
    { suffix: '103', outcome: 'PARTIAL_MATCH', spec: 'fuzzy match' },
    { suffix: '104', outcome: 'PENDING', spec: 'verification in progress' },
    { suffix: '105', outcome: 'INVALID_ACCOUNT', spec: 'returns 400, invalid account' },
    { suffix: '106', outcome: 'UNSUPPORTED', spec: 'rail has no name verification' },
    { suffix: '107', outcome: 'CHECKED_BY_RECEIVING_FI', spec: 'deferred to the receiving institution' },
  ],
  otherwise: { outcome: 'MATCHED', spec: 'exact match' },
};

/**
 * One quote execution's course. `steps`: the statuses the transaction passes through, each after
 * `afterMs` from execution; the last one is final. `refund` names the refund that follows a failure.
 */
export interface ExecutionOutcome {
  steps: readonly {
    status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
    afterMs: number;
    failureReason?: string;
  }[];
  refund?: { status: 'COMPLETED' | 'FAILED'; reason?: string };
}

/** Last 3 digits of the destination external account's number. */
export const QUOTE_EXECUTION: SuffixTable<ExecutionOutcome> = {
  name: 'Quote execution to an external account destination',
  field: 'destination account number',
  length: 3,
  rows: [
    {
      suffix: '002',
      outcome: { steps: [{ status: 'FAILED', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED' }] },
      spec: 'quote execution failed',
    },
    {
      suffix: '003',
      outcome: {
        steps: [
          { status: 'PROCESSING', afterMs: 0 },
          { status: 'COMPLETED', afterMs: 6 * 60 * SECOND },
        ],
      },
      spec: 'completes after about 6 minutes',
    },
    {
      suffix: '004',
      outcome: { steps: [{ status: 'FAILED', afterMs: 0, failureReason: 'ACCOUNT_CANNOT_RECEIVE' }] },
      spec: 'counterparty delivery failed',
    },
    {
      suffix: '005',
      outcome: {
        steps: [
          { status: 'COMPLETED', afterMs: 0 },
          { status: 'FAILED', afterMs: 30 * SECOND, failureReason: 'PAYOUT_RETURNED' },
        ],
      },
      spec: 'receiving bank returns the payment: completes, then becomes failed',
    },
    {
      suffix: '006',
      outcome: {
        steps: [{ status: 'FAILED', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED' }],
        refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
      },
      spec: 'user cancellation',
    },
    {
      suffix: '007',
      outcome: {
        steps: [{ status: 'FAILED', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED' }],
        refund: { status: 'FAILED' },
      },
      spec: 'payout and refund failed',
    },
  ],
  otherwise: { outcome: { steps: [{ status: 'COMPLETED', afterMs: 0 }] }, spec: 'successful payment' },
};

type UmaOutcome = 'COMPLETED' | 'PENDING' | 'FAILED';
export type UmaScenarioName = 'success' | 'pending.long' | 'fail.compliance';

export interface UmaScenario {
  scenario: UmaScenarioName;
  currency: string;
  outcome: UmaOutcome;
  /** Transaction failureReason of a FAILED outcome. */
  failureReason?: string;
  /** The spec's words, for people. */
  spec: string;
}

/** `$<scenario>.<currency>@<sandbox UMA domain>`: each scenario with the currencies the spec names for it. */
export const UMA_DESTINATION_SCENARIOS: readonly UmaScenario[] = [
  { scenario: 'success', currency: 'USD', outcome: 'COMPLETED', spec: 'succeeds' },
  { scenario: 'success', currency: 'EUR', outcome: 'COMPLETED', spec: 'succeeds' },
  { scenario: 'success', currency: 'MXN', outcome: 'COMPLETED', spec: 'succeeds' },
  { scenario: 'pending.long', currency: 'USD', outcome: 'PENDING', spec: 'stays pending for a long time' },
  {
    scenario: 'fail.compliance',
    currency: 'USD',
    outcome: 'FAILED',
    failureReason: 'COMPLIANCE_REJECTED',
    spec: 'fails a compliance check',
  },
];

/** Every magic address's local part, `$success.usd, …`, for messages. */
export const UMA_SCENARIO_LIST = UMA_DESTINATION_SCENARIOS.map(
  (s) => `$${s.scenario}.${s.currency.toLowerCase()}`,
).join(', ');

/** The scenario an address names (`$pending.long.usd@any.domain`), case-insensitive; undefined for any other address. */
export function umaScenario(address: string): UmaScenario | undefined {
  const at = address.indexOf('@');
  if (!address.startsWith('$') || at < 0) return undefined;
  const local = address.slice(1, at).toLowerCase();
  return UMA_DESTINATION_SCENARIOS.find((s) => `${s.scenario}.${s.currency.toLowerCase()}` === local);
}

/**
 * The value an external account's magic digits are read from (the spec: "the primary identifier:
 * account number, IBAN, CLABE, Spark wallet address; for identifiers with a domain part, the
 * digits go at the end of the username portion"), by the description's accountInfo field names.
 */
const PRIMARY_IDENTIFIER_FIELDS = [
  'accountNumber',
  'iban',
  'clabeNumber',
  'address',
  'lightningAddress',
  'vpa',
  'pixKey',
  'invoice',
  'bolt12',
  'phoneNumber',
] as const;

export function primaryIdentifier(accountInfo: Record<string, unknown>): string {
  for (const field of PRIMARY_IDENTIFIER_FIELDS) {
    const value = accountInfo[field];
    if (typeof value !== 'string' || value === '') continue;
    const at = value.indexOf('@');
    return at > 0 ? value.slice(0, at) : value;
  }
  return '';
}

/**
 * A pull is an incoming transaction, whose failure reasons (the description's
 * IncomingTransactionFailureReason) have one value for a source that could not be collected.
 */
export const PULL_FAILURE_REASON = 'COLLECTION_FAILED';
