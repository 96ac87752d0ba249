/**
 * Every trigger scenario, as data: one per row of the spec's sandbox magic tables (plus the
 * card state machine), named `<area>.<outcome>`. The magic values and the expected outcomes are
 * read from the tables in src/service, never written twice; a recipe (recipes/) builds the
 * resources and reports what the service answered, which a test compares with `expect`.
 */
import {
  INVALID_OTP_REASON,
  LEGACY_WALLET_SIGNATURE,
  SANDBOX_OTP_CODE,
  BENEFICIAL_OWNER_KYC,
  BENEFICIARY_NAME_VERIFICATION,
  CARD_AUTHORIZATION,
  BUSINESS_KYB,
  EXTERNAL_ACCOUNT_TRANSFER,
  INDIVIDUAL_KYC,
  QUOTE_EXECUTION,
  UMA_DESTINATION_SCENARIOS,
  suffixRow,
  type SuffixTable,
} from '../service/index.js';

export type Area =
  | 'kyc'
  | 'kyb'
  | 'owner'
  | 'transfer'
  | 'beneficiary'
  | 'quote'
  | 'uma'
  | 'card'
  | 'card-transaction'
  | 'auth';

/** How a scenario is built; each names one function in recipes/. */
export type RecipeName =
  | 'individual-kyc'
  | 'individual-verification'
  | 'business-verification'
  | 'beneficial-owner'
  | 'external-transfer'
  | 'beneficiary-verification'
  | 'quote-execution'
  | 'realtime-funding'
  | 'uma-destination'
  | 'card'
  | 'card-transaction'
  | 'otp-login';

export interface Scenario {
  name: string;
  area: Area;
  /** The field whose value steers the outcome, and the value sent. */
  magic: { field: string; value: string };
  /** What the spec's table says the service reports: field → value (the observed fields must match). */
  expect: Record<string, string>;
  /** The spec's words for this row. */
  spec: string;
  recipe: RecipeName;
  /** Milliseconds before the final outcome (followed when the run waits); 0 when it is immediate. */
  delayMs: number;
}

/** A value ending in `suffix` whose other characters never form another magic suffix. */
const named = (prefix: string, suffix: string) => `${prefix} ${suffix}`;
/** For "any other ending" rows: a value that ends in none of the table's suffixes. */
function otherEnding<T>(table: SuffixTable<T>, candidate: string): string {
  if (suffixRow(table, candidate) !== table.otherwise)
    throw new Error(`${candidate} is a magic value of ${table.name}`);
  return candidate;
}

function individual(): Scenario[] {
  const row = (suffix?: string) =>
    suffix ? INDIVIDUAL_KYC.rows.find((r) => r.suffix === suffix)! : INDIVIDUAL_KYC.otherwise;
  const atCreation = (name: string, suffix: string | undefined, value: string): Scenario => ({
    name,
    area: 'kyc',
    magic: { field: 'fullName', value },
    expect: { kycStatus: row(suffix).outcome.kycStatus },
    spec: row(suffix).spec,
    recipe: 'individual-kyc',
    delayMs: 0,
  });
  const verification = (name: string, value: string, row: Pick<Scenario, 'expect' | 'spec'>): Scenario => ({
    name,
    area: 'kyc',
    magic: { field: 'fullName', value },
    ...row,
    recipe: 'individual-verification',
    delayMs: 0,
  });
  return [
    atCreation('kyc.pending', '001', named('Pat Pending', '001')),
    atCreation('kyc.rejected', '002', named('Rex Rejected', '002')),
    atCreation('kyc.unverified', '003', named('Uma Unverified', '003')),
    atCreation('kyc.approved', undefined, otherEnding(INDIVIDUAL_KYC, 'Ada Approved')),
    verification('kyc.review', named('Rita Review', '001'), {
      expect: { verificationStatus: 'PENDING_MANUAL_REVIEW', kycStatus: 'PENDING' },
      spec: row('001').spec,
    }),
    verification('kyc.poor-document', named('Paul Poordoc', '003'), {
      expect: { verificationStatus: 'RESOLVE_ERRORS', errorType: 'POOR_QUALITY_DOCUMENT' },
      spec: row('003').spec,
    }),
    verification('kyc.missing-data', named('Mia Missing', '001'), {
      expect: { verificationStatus: 'RESOLVE_ERRORS', errorType: 'MISSING_FIELD' },
      spec: 'anything missing returns verificationStatus RESOLVE_ERRORS with one entry per problem in errors',
    }),
  ];
}

function business(): Scenario[] {
  const make = (name: string, value: string, expect: Record<string, string>): Scenario => ({
    name,
    area: 'kyb',
    magic: { field: BUSINESS_KYB.field, value },
    expect,
    spec: suffixRow(BUSINESS_KYB, value).spec,
    recipe: 'business-verification',
    delayMs: 0,
  });
  const owner = (name: string, value: string): Scenario => ({
    name,
    area: 'owner',
    magic: { field: BENEFICIAL_OWNER_KYC.field, value },
    expect: { kycStatus: suffixRow(BENEFICIAL_OWNER_KYC, value).outcome },
    spec: `${suffixRow(BENEFICIAL_OWNER_KYC, value).spec}, once the business resolves`,
    recipe: 'beneficial-owner',
    delayMs: 0,
  });
  return [
    make('kyb.approved', otherEnding(BUSINESS_KYB, 'REG-5550100'), {
      verificationStatus: 'APPROVED',
      kybStatus: 'APPROVED',
    }),
    make('kyb.rejected', 'REG-5550002', { verificationStatus: 'REJECTED', kybStatus: 'REJECTED' }),
    make('kyb.review', 'REG-5550003', { verificationStatus: 'RESOLVE_ERRORS' }),
    owner('owner.pending', 'Owner001'),
    owner('owner.rejected', 'Owner002'),
    owner('owner.approved', otherEnding(BENEFICIAL_OWNER_KYC, 'Owner')),
  ];
}

const ACCOUNT_BASE = '1234567'; // account numbers are ACCOUNT_BASE + a 3-digit suffix

function transfers(): Scenario[] {
  const names: Record<string, string> = {
    '002': 'insufficient-funds',
    '003': 'account-closed',
    '004': 'bank-rejected',
    '005': 'pending-then-fail',
  };
  return [...EXTERNAL_ACCOUNT_TRANSFER.rows, { ...EXTERNAL_ACCOUNT_TRANSFER.otherwise, suffix: '010' }].map((row) => {
    const value = `${ACCOUNT_BASE}${row.suffix}`;
    const outcome = suffixRow(EXTERNAL_ACCOUNT_TRANSFER, value).outcome;
    return {
      name: `transfer.${names[row.suffix!] ?? 'success'}`,
      area: 'transfer' as const,
      magic: { field: 'accountInfo.accountNumber', value },
      expect: { status: outcome.status, ...(outcome.failureReason ? { failureReason: outcome.failureReason } : {}) },
      spec: row.spec,
      recipe: 'external-transfer' as const,
      delayMs: outcome.delayMs,
    };
  });
}

function beneficiaries(): Scenario[] {
  const names: Record<string, string> = {
    '102': 'not-matched',
    '103': 'partial-match',
    '104': 'pending',
    '105': 'invalid-account',
    '106': 'unsupported',
    '107': 'checked-by-receiving-fi',
  };
  return [...BENEFICIARY_NAME_VERIFICATION.rows, { ...BENEFICIARY_NAME_VERIFICATION.otherwise, suffix: '110' }].map(
    (row): Scenario => {
      const value = `${ACCOUNT_BASE}${row.suffix}`;
      const outcome = suffixRow(BENEFICIARY_NAME_VERIFICATION, value).outcome;
      return {
        name: `beneficiary.${names[row.suffix!] ?? 'matched'}`,
        area: 'beneficiary',
        magic: { field: 'accountInfo.accountNumber', value },
        expect: outcome === 'INVALID_ACCOUNT' ? { httpStatus: '400' } : { beneficiaryVerificationStatus: outcome },
        spec: row.spec,
        recipe: 'beneficiary-verification',
        delayMs: 0,
      };
    },
  );
}

function quotes(): Scenario[] {
  const names: Record<string, string> = {
    '002': 'failed',
    '003': 'long',
    '004': 'delivery-failed',
    '005': 'returned',
    '006': 'cancelled',
    '007': 'refund-failed',
  };
  const executed = [...QUOTE_EXECUTION.rows, { ...QUOTE_EXECUTION.otherwise, suffix: '010' }].map((row): Scenario => {
    const value = `${ACCOUNT_BASE}${row.suffix}`;
    const { steps, refund } = suffixRow(QUOTE_EXECUTION, value).outcome;
    const last = steps[steps.length - 1]!;
    return {
      name: `quote.${names[row.suffix!] ?? 'success'}`,
      area: 'quote',
      magic: { field: 'destination accountInfo.accountNumber', value },
      expect: {
        status: last.status,
        ...(last.failureReason ? { failureReason: last.failureReason } : {}),
        ...(refund ? { refundStatus: refund.status } : {}),
      },
      spec: row.spec,
      recipe: 'quote-execution',
      delayMs: last.afterMs,
    };
  });
  const realtime: Scenario = {
    name: 'quote.realtime-funding',
    area: 'quote',
    magic: { field: 'source.sourceType', value: 'REALTIME_FUNDING' },
    expect: { status: 'COMPLETED', quoteStatus: 'COMPLETED' },
    spec: 'pay to the returned payment instructions with POST /sandbox/send',
    recipe: 'realtime-funding',
    delayMs: 0,
  };
  return [...executed, realtime];
}

/** Names as the issue gives them; `success` takes the currency. */
const UMA_NAMES: Record<string, string> = { 'pending.long': 'pending-long', 'fail.compliance': 'compliance-fail' };

function uma(): Scenario[] {
  return UMA_DESTINATION_SCENARIOS.map((s) => ({
    name: `uma.${UMA_NAMES[s.scenario] ?? `success-${s.currency.toLowerCase()}`}`,
    area: 'uma' as const,
    magic: {
      field: 'destination.umaAddress',
      value: `$${s.scenario}.${s.currency.toLowerCase()}@${UMA_SANDBOX_DOMAIN}`,
    },
    expect: { status: s.outcome, ...(s.failureReason ? { failureReason: s.failureReason } : {}) },
    spec: s.spec,
    recipe: 'uma-destination' as const,
    delayMs: 0,
  }));
}

/** The domain of the UMA magic addresses; any domain is accepted (spec "{sandbox_uma_domain}"). */
export const UMA_SANDBOX_DOMAIN = 'sandbox.uma.test';

/** Card state machine rows (spec "States and transitions: Card"). `004` is the emulator's own rejection magic. */
function cards(): Scenario[] {
  const card = (
    name: string,
    field: string,
    value: string,
    expect: Record<string, string>,
    spec: string,
    delayMs = 0,
  ): Scenario => ({
    name,
    area: 'card',
    magic: { field, value },
    expect,
    spec,
    recipe: 'card',
    delayMs,
  });
  // The spec gives no issuance time; the emulator's issuer answers after a second.
  const ISSUANCE_MS = 1000;
  return [
    card(
      'card.issued',
      'cardholder fullName',
      'Carla Cardholder',
      { state: 'ACTIVE' },
      'PROCESSING → ACTIVE when the issuer accepts',
      ISSUANCE_MS,
    ),
    card(
      'card.issuer-rejected',
      'cardholder fullName',
      named('Carl Rejected', '004'),
      { state: 'CLOSED', stateReason: 'ISSUER_REJECTED' },
      "PROCESSING → CLOSED (ISSUER_REJECTED); the 004 suffix is the embedded emulator's, the remote sandbox has no such value",
      ISSUANCE_MS,
    ),
    card('card.frozen', 'state', 'FROZEN', { state: 'FROZEN' }, 'ACTIVE → FROZEN'),
    card('card.unfrozen', 'state', 'ACTIVE', { state: 'ACTIVE' }, 'FROZEN → ACTIVE'),
    card(
      'card.closed',
      'state',
      'CLOSED',
      { state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' },
      'any state → CLOSED (CLOSED_BY_PLATFORM)',
    ),
    card(
      'card.funding-changed',
      'fundingSources',
      "the cardholder's EUR account",
      { state: 'ACTIVE' },
      'fundingSources updated; state unchanged; CARD.FUNDING_SOURCE_CHANGE',
    ),
  ];
}

/**
 * Card-transaction simulation (the description's simulate/authorization table, by the last three
 * characters of merchant.descriptor), and the lifecycle steps after an approved authorization of
 * 1,000 (a clearing below it, a clearing and a return of all of it). A decline makes no
 * CardTransaction: observed as `cardTransaction none` with nothing pulled.
 */
function cardTransactions(): Scenario[] {
  const make = (
    name: string,
    magic: Scenario['magic'],
    expect: Record<string, string>,
    spec: string,
    delayMs = 0,
  ): Scenario => ({
    name: `card-transaction.${name}`,
    area: 'card-transaction',
    magic,
    expect,
    spec,
    recipe: 'card-transaction',
    delayMs,
  });
  const descriptor = (value: string) => ({ field: CARD_AUTHORIZATION.field, value });
  const row = (value: string) => suffixRow(CARD_AUTHORIZATION, value);
  const approved = otherEnding(CARD_AUTHORIZATION, 'BLUE BOTTLE COFFEE SF');
  const delayed = 'SLOW PULL CAFE 005';
  return [
    make('approved', descriptor(approved), { status: 'AUTHORIZED', pulled: '1000' }, row(approved).spec),
    make(
      'declined-funds',
      descriptor('AMAZON RETAIL US-002'),
      { cardTransaction: 'none', pulled: '0' },
      row('x002').spec,
    ),
    make('declined-paused', descriptor('CORNER STORE 003'), { cardTransaction: 'none', pulled: '0' }, row('x003').spec),
    make(
      'delayed-pull',
      descriptor(delayed),
      { status: 'AUTHORIZED', pendingPulls: '0' },
      row(delayed).spec,
      row(delayed).outcome.confirmAfterMs,
    ),
    make('exception', descriptor('UBER EATS 006'), { status: 'EXCEPTION', pulled: '0' }, row('x006').spec),
    make(
      'partially-settled',
      { field: 'clearing.amount', value: '400' },
      { status: 'PARTIALLY_SETTLED', settledAmount: '400' },
      'a clearing below the authorized amount: PARTIALLY_SETTLED, more clearings expected',
    ),
    make(
      'refunded',
      { field: 'return.amount', value: '1000' },
      { status: 'REFUNDED', refundedAmount: '1000' },
      'a return of the whole net settled amount: REFUNDED',
    ),
  ];
}

/**
 * The spec's "Auth magic values" that a script can exercise on an existing EMAIL_OTP or SMS_OTP
 * credential: the fixed code, any other code, and the legacy wallet signature.
 */
function auth(): Scenario[] {
  const otp = (name: string, field: string, value: string, expect: Record<string, string>, spec: string): Scenario => ({
    name,
    area: 'auth',
    magic: { field, value },
    expect,
    spec,
    recipe: 'otp-login',
    delayMs: 0,
  });
  return [
    otp(
      'auth.otp-code',
      'otp_code',
      SANDBOX_OTP_CODE,
      { httpStatus: '200' },
      'the fixed sandbox code verifies (real HPKE and signature checks still run)',
    ),
    otp(
      'auth.otp-wrong-code',
      'otp_code',
      '123456',
      { httpStatus: '401', code: 'UNAUTHORIZED', reason: INVALID_OTP_REASON },
      'any other decrypted code is 401 UNAUTHORIZED',
    ),
    otp(
      'auth.legacy-wallet-signature',
      'Service-Wallet-Signature',
      LEGACY_WALLET_SIGNATURE,
      { httpStatus: '204' },
      'the legacy value is still accepted in place of a stamp (here: revoking the session just made)',
    ),
  ];
}

export const SCENARIOS: readonly Scenario[] = [
  ...individual(),
  ...business(),
  ...transfers(),
  ...beneficiaries(),
  ...quotes(),
  ...uma(),
  ...cards(),
  ...cardTransactions(),
  ...auth(),
];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
