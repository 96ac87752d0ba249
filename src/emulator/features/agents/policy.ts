/**
 * AgentPolicy from a request body (the description's AgentPolicy, AgentSpendingLimits). Its shape
 * (required fields, types, the permissions' and execution modes' enums, arrays and objects) is
 * checked before the handler runs; read here are the emulator's rules beyond it: the accounts'
 * id kinds, currencies it knows, limits of at least 0, a threshold amount's currency.
 */
import { CURRENCY_CODES } from '../../../service/currencies.js';
import { idPatternOf } from '../../../service/identifiers.js';
import { Fields } from '../../kernel/fields.js';

/** The accounts a policy may name: internal or external ones. */
const ACCOUNT_ID = idPatternOf(['InternalAccount', 'ExternalAccount']);

/** An integer ≥ 0 or null (null: no limit); undefined when absent or bad (the error is recorded). */
function limitOrNull(f: Fields, name: string): number | null | undefined {
  if (f.raw(name) === null) return null;
  return f.integer(name, { min: 0 });
}

/** AgentAccountRestrictions: allowedAccountIds (null: every account) and per-account rules. */
function readRestrictions(r: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.raw('allowedAccountIds') === null) out.allowedAccountIds = null;
  else {
    const ids = r.stringArray('allowedAccountIds', { pattern: ACCOUNT_ID });
    if (ids) out.allowedAccountIds = ids;
  }
  const rules = r.raw('accountRules');
  if (Array.isArray(rules)) {
    out.accountRules = rules.map((value: Record<string, unknown>, i) => {
      const rule = new Fields(value, r.path(`accountRules[${i}]`), r.errors);
      const accountId = rule.string('accountId', { pattern: ACCOUNT_ID });
      const executionMode = rule.string('executionMode');
      const perTransactionLimit = limitOrNull(rule, 'perTransactionLimit');
      return Object.fromEntries(
        Object.entries({ accountId, executionMode, perTransactionLimit }).filter(([, v]) => v !== undefined),
      );
    });
  }
  return out;
}

/** The `policy` of a create request. */
export function readPolicy(f: Fields): Record<string, unknown> | undefined {
  const p = f.object('policy');
  return p && readFields(p);
}

/**
 * `PATCH /agents/{id}/policy` (the description's AgentPolicyUpdateRequest): only the fields sent
 * change; `spendingLimits` is merged field by field (AgentSpendingLimitsUpdate), the other objects
 * and `permissions` replace what was there. Returns the whole policy after the update.
 */
export function updatePolicy(p: Fields, current: Record<string, unknown>): Record<string, unknown> {
  const { spendingLimits, ...rest } = readFields(p);
  const limits = { ...(current.spendingLimits as object | undefined), ...(spendingLimits as object | undefined) };
  return { ...current, ...rest, spendingLimits: limits };
}

/** The policy's fields that are present (a create's required ones are, by the schema check). */
function readFields(p: Fields): Record<string, unknown> {
  const permissions = p.stringArray('permissions');
  const defaultExecutionMode = p.string('defaultExecutionMode');
  const s = p.object('spendingLimits');
  const spendingLimits = s && {
    currency: s.string('currency', { enum: CURRENCY_CODES }),
    perTransactionLimit: s.integer('perTransactionLimit', { min: 0 }),
    dailyLimit: limitOrNull(s, 'dailyLimit'),
    dailyTransactionLimit: s.integer('dailyTransactionLimit', { min: 0 }),
    monthlyLimit: limitOrNull(s, 'monthlyLimit'),
  };
  const extra: Record<string, unknown> = {};
  const restrictions = p.object('accountRestrictions');
  if (restrictions) extra.accountRestrictions = readRestrictions(restrictions);
  const t = p.object('approvalThresholds');
  if (t) {
    const amount = limitOrNull(t, 'amount');
    const currency = t.string('currency', { required: typeof amount === 'number', enum: CURRENCY_CODES });
    extra.approvalThresholds = { ...(currency ? { currency } : {}), ...(amount !== undefined ? { amount } : {}) };
  }
  return clean({ permissions, defaultExecutionMode, spendingLimits: clean(spendingLimits), ...extra })!;
}

function clean<T extends Record<string, unknown>>(o: T | undefined): T | undefined {
  return o && (Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T);
}
