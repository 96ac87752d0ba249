/**
 * The courses the spec's sandbox tables give (src/service/money-magic.ts), as steps for course.ts:
 * external-account transfers (source of a pull, destination of a payout), quote execution to an
 * external account, and UMA destination addresses.
 */
import {
  EXTERNAL_ACCOUNT_TRANSFER,
  PULL_FAILURE_REASON,
  QUOTE_EXECUTION,
  umaScenario,
} from '../../../service/money-magic.js';
import { bySuffix } from '../../../service/suffix-table.js';
import type { CourseSpec } from './course.js';

export type Plan = Pick<CourseSpec, 'steps' | 'refund'>;

/** A transfer to (payout) or from (pull: an incoming transaction, with the incoming failure reason) an external account. */
export function transferPlan(primaryIdentifier: string, pull: boolean): Plan {
  const outcome = bySuffix(EXTERNAL_ACCOUNT_TRANSFER, primaryIdentifier);
  const failureReason = outcome.status === 'FAILED' ? (pull ? PULL_FAILURE_REASON : outcome.failureReason) : undefined;
  const final = { status: outcome.status, afterMs: outcome.delayMs, ...(failureReason ? { failureReason } : {}) };
  return { steps: outcome.delayMs > 0 ? [{ status: 'PENDING', afterMs: 0 }, final] : [final] };
}

export function succeeds(plan: Plan): boolean {
  return plan.steps.every((s) => s.status !== 'FAILED');
}

/** A quote executed to an external account. */
export function quoteExecutionPlan(primaryIdentifier: string): Plan {
  const outcome = bySuffix(QUOTE_EXECUTION, primaryIdentifier);
  return {
    steps: outcome.steps,
    ...(outcome.refund
      ? {
          refund: outcome.refund.reason
            ? { status: outcome.refund.status, reason: outcome.refund.reason as 'USER_CANCELLATION' }
            : { status: outcome.refund.status },
        }
      : {}),
  };
}

/** A payment to a UMA address: a magic address goes as it says (pending.long stays PENDING); any other completes. */
export function umaPlan(address: string): Plan {
  const scenario = umaScenario(address);
  if (!scenario || scenario.outcome === 'COMPLETED') return { steps: [{ status: 'COMPLETED', afterMs: 0 }] };
  if (scenario.outcome === 'PENDING') return { steps: [{ status: 'PENDING', afterMs: 0 }] };
  return { steps: [{ status: 'FAILED', afterMs: 0, failureReason: scenario.failureReason! }] };
}

export const COMPLETES: Plan = { steps: [{ status: 'COMPLETED', afterMs: 0 }] };
