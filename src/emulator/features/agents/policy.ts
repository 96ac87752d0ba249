/** AgentPolicy from a request body (the description's AgentPolicy, AgentSpendingLimits). */
import type { Fields } from '../../kernel/fields.js';

const PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const CURRENCY = /^[A-Z]{3}$/;

/** An integer ≥ 0 or null (null: no limit); undefined when absent or bad (the error is recorded). */
function limitOrNull(f: Fields, name: string): number | null | undefined {
  if (f.raw(name) === null) return null;
  return f.integer(name, { min: 0 });
}

export function readPolicy(f: Fields): Record<string, unknown> | undefined {
  const p = f.object('policy', { required: true });
  if (!p) return undefined;
  const permissions = p.stringArray('permissions', { required: true, pattern: new RegExp(`^(${PERMISSIONS.join('|')})$`) });
  const defaultExecutionMode = p.string('defaultExecutionMode', { required: true, enum: ['AUTO', 'APPROVAL_REQUIRED'] });
  const s = p.object('spendingLimits', { required: true });
  const spendingLimits = s && {
    currency: s.string('currency', { required: true, pattern: CURRENCY }),
    perTransactionLimit: s.integer('perTransactionLimit', { required: true, min: 0 }),
    dailyLimit: limitOrNull(s, 'dailyLimit'),
    dailyTransactionLimit: s.integer('dailyTransactionLimit', { min: 0 }),
    monthlyLimit: limitOrNull(s, 'monthlyLimit'),
  };
  const extra: Record<string, unknown> = {};
  for (const name of ['accountRestrictions', 'approvalThresholds']) {
    // Kept as given: the emulator does not enforce them yet.
    if (p.object(name)) extra[name] = p.raw(name);
  }
  const clean = (o: Record<string, unknown> | undefined) => o && Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return { permissions, defaultExecutionMode, spendingLimits: clean(spendingLimits), ...extra };
}
