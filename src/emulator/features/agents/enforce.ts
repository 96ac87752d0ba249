/**
 * The agent's policy (the description's AgentPolicy), checked before an `/agents/me*` operation
 * runs: permissions, the paused flag, account restrictions and spending limits refuse it (403);
 * the execution mode and approval threshold decide whether it runs at once or waits for the
 * platform's approval. Amounts are minor units; other currencies are converted to the limit's
 * currency at the rate of the moment (the description: "converted at evaluation time").
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import { convert as convertAt, rates } from '../exchange-rates/rates.js';
import { byAgent, transactions } from '../transactions/transactions.js';
import type { AgentRec } from './agent-record.js';

export type Permission =
  | 'VIEW_TRANSACTIONS'
  | 'CREATE_TRANSFERS'
  | 'CREATE_QUOTES'
  | 'EXECUTE_QUOTES'
  | 'MANAGE_EXTERNAL_ACCOUNTS';

/** What an operation would spend: `amount` in `currency`, touching these accounts. */
export interface Spend {
  amount: number;
  currency: string;
  accountIds: string[];
}

interface Limits {
  currency: string;
  perTransactionLimit: number;
  dailyLimit?: number | null;
  dailyTransactionLimit?: number;
  monthlyLimit?: number | null;
}
interface Rule {
  accountId: string;
  executionMode?: 'AUTO' | 'APPROVAL_REQUIRED';
  perTransactionLimit?: number | null;
}
interface Policy {
  permissions: Permission[];
  defaultExecutionMode: 'AUTO' | 'APPROVAL_REQUIRED';
  spendingLimits: Limits;
  accountRestrictions?: { allowedAccountIds?: string[] | null; accountRules?: Rule[] };
  approvalThresholds?: { currency?: string; amount?: number | null };
}

const policyOf = (agent: AgentRec): Policy => agent.policy as unknown as Policy;

const forbidden = (message: string, details?: Record<string, unknown>) =>
  new HttpError(403, 'FORBIDDEN', message, details ? { details } : {});

function convert(emu: EmulatorContext, amount: number, from: string, to: string): number {
  return convertAt(rates(emu), amount, from, to);
}

/** 403 FORBIDDEN unless the agent is running and its policy grants the permission. */
export function requirePermission(agent: AgentRec, permission: Permission): void {
  if (agent.isPaused) throw forbidden(`${agent.id} is paused: the platform must resume it`);
  if (!policyOf(agent).permissions.includes(permission)) {
    throw forbidden(`The policy of ${agent.id} does not grant ${permission}`, { permission });
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** The agent's spending today and this month (UTC, emulator clock), in the limit's currency. */
export function usage(
  emu: EmulatorContext,
  agent: AgentRec,
): {
  dailyTransactionCount: number;
  dailySpend: number;
  dailyResetDate: string;
  monthlySpend: number;
  monthlyResetMonth: string;
} {
  const currency = policyOf(agent).spendingLimits.currency;
  const today = emu.iso().slice(0, 10);
  const month = today.slice(0, 7);
  let dailyTransactionCount = 0;
  let dailySpend = 0;
  let monthlySpend = 0;
  for (const tx of emu
    .table(transactions)
    .where(byAgent, agent.id)
    .filter((t) => t.status !== 'FAILED')) {
    const sent = tx.fields.sentAmount as { amount: number; currency: { code: string } };
    const amount = convert(emu, sent.amount, sent.currency.code, currency);
    if (tx.createdAt.startsWith(month)) monthlySpend += amount;
    if (tx.createdAt.startsWith(today)) {
      dailySpend += amount;
      dailyTransactionCount += 1;
    }
  }
  const next = new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const nextMonth = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { dailyTransactionCount, dailySpend, dailyResetDate: next, monthlySpend, monthlyResetMonth: nextMonth };
}

function velocity(limit: string, allowed: number, attempted: number, currency: string): HttpError {
  return new HttpError(
    403,
    'VELOCITY_LIMIT_EXCEEDED',
    `The agent's ${limit} (${allowed} ${currency} minor units) would be exceeded (${attempted})`,
    {
      details: { limit, limitAmount: allowed, attemptedAmount: attempted, currency },
    },
  );
}

/**
 * Refuses a spend the policy forbids (403 FORBIDDEN for an account outside allowedAccountIds,
 * 403 VELOCITY_LIMIT_EXCEEDED for a limit) and says whether it may run at once or needs approval.
 */
export function judgeSpend(emu: EmulatorContext, agent: AgentRec, spend: Spend): 'AUTO' | 'APPROVAL_REQUIRED' {
  const policy = policyOf(agent);
  const limits = policy.spendingLimits;
  const amount = convert(emu, spend.amount, spend.currency, limits.currency);
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  const outside = allowed ? spend.accountIds.filter((id) => !allowed.includes(id)) : [];
  if (outside.length > 0)
    throw forbidden(`The policy does not allow the agent to use ${outside.join(', ')}`, { accountIds: outside });
  const rules = (policy.accountRestrictions?.accountRules ?? []).filter((r) => spend.accountIds.includes(r.accountId));

  if (amount > limits.perTransactionLimit)
    throw velocity('perTransactionLimit', limits.perTransactionLimit, amount, limits.currency);
  for (const rule of rules) {
    if (typeof rule.perTransactionLimit === 'number' && amount > rule.perTransactionLimit) {
      throw velocity(`perTransactionLimit of ${rule.accountId}`, rule.perTransactionLimit, amount, limits.currency);
    }
  }
  const used = usage(emu, agent);
  if (typeof limits.dailyLimit === 'number' && used.dailySpend + amount > limits.dailyLimit)
    throw velocity('dailyLimit', limits.dailyLimit, used.dailySpend + amount, limits.currency);
  if (typeof limits.monthlyLimit === 'number' && used.monthlySpend + amount > limits.monthlyLimit)
    throw velocity('monthlyLimit', limits.monthlyLimit, used.monthlySpend + amount, limits.currency);
  if (
    typeof limits.dailyTransactionLimit === 'number' &&
    used.dailyTransactionCount + 1 > limits.dailyTransactionLimit
  ) {
    throw new HttpError(
      403,
      'VELOCITY_LIMIT_EXCEEDED',
      `The agent may make ${limits.dailyTransactionLimit} transactions a day`,
      {
        details: {
          limit: 'dailyTransactionLimit',
          limitAmount: limits.dailyTransactionLimit,
          attemptedAmount: used.dailyTransactionCount + 1,
        },
      },
    );
  }

  // A rule naming one of the operation's accounts sets its mode; otherwise the default does.
  const modes = rules.map((r) => r.executionMode).filter((m): m is 'AUTO' | 'APPROVAL_REQUIRED' => m !== undefined);
  const mode =
    modes.length > 0
      ? modes.includes('APPROVAL_REQUIRED')
        ? 'APPROVAL_REQUIRED'
        : 'AUTO'
      : policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds;
  const above =
    typeof threshold?.amount === 'number' &&
    amount > convert(emu, threshold.amount, threshold.currency ?? limits.currency, limits.currency);
  return mode === 'APPROVAL_REQUIRED' || above ? 'APPROVAL_REQUIRED' : 'AUTO';
}
