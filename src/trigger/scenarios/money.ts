/** Trigger scenarios that move money: external transfers, beneficiary checks, quotes and UMA destinations. */
import {
  BENEFICIARY_NAME_VERIFICATION,
  EXTERNAL_ACCOUNT_TRANSFER,
  QUOTE_EXECUTION,
  UMA_DESTINATION_SCENARIOS,
  suffixRow,
} from '../../service/index.js';
import type { Scenario } from '../scenario.js';

const ACCOUNT_BASE = '1234567'; // account numbers are ACCOUNT_BASE + a 3-digit suffix

export function transfers(): Scenario[] {
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

export function beneficiaries(): Scenario[] {
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

export function quotes(): Scenario[] {
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

export function uma(): Scenario[] {
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
