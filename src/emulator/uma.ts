/**
 * The spec's UMA magic addresses, `$<scenario>.<currency>@<any sandbox domain>`: `success` with
 * usd, eur or mxn succeeds in that currency, `pending.long.usd` stays pending, and
 * `fail.compliance.usd` fails the compliance check. The spec names them as destinations (quotes
 * paid with POST /sandbox/send); the emulator also lets them steer POST /sandbox/uma/receive by its
 * sender (README "Choices where the spec is silent").
 */
export type UmaOutcome = 'COMPLETED' | 'PENDING' | 'FAILED';

const SCENARIOS: Record<string, { outcome: UmaOutcome; currency: string }> = {
  'success.usd': { outcome: 'COMPLETED', currency: 'USD' },
  'success.eur': { outcome: 'COMPLETED', currency: 'EUR' },
  'success.mxn': { outcome: 'COMPLETED', currency: 'MXN' },
  'pending.long.usd': { outcome: 'PENDING', currency: 'USD' },
  'fail.compliance.usd': { outcome: 'FAILED', currency: 'USD' },
};

export const UMA_SCENARIO_LIST = Object.keys(SCENARIOS).map((s) => `$${s}`).join(', ');

/** The scenario a well-formed UMA address names, if it is a magic one. */
export function umaScenario(address: string): { outcome: UmaOutcome; currency: string } | undefined {
  return SCENARIOS[address.slice(1, address.indexOf('@')).toLowerCase()];
}

/** Fields a transaction carries for an outcome (a failure says why; only a completed one is settled). */
export function outcomeFields(outcome: UmaOutcome, nowIso: string): Record<string, unknown> {
  if (outcome === 'FAILED') return { failureReason: 'COMPLIANCE_CHECK_FAILED' };
  return outcome === 'COMPLETED' ? { settledAt: nowIso } : {};
}
