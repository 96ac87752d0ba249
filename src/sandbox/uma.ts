/**
 * The sandbox's magic UMA addresses (spec "UMA destination addresses"): `$<scenario>.<currency>@domain`
 * steers the outcome. Knowing them lets the CLI say what a result means instead of leaving a user to
 * wonder why a payment stayed pending or failed.
 */

export type UmaScenario = 'success' | 'pending.long' | 'fail.compliance';

export interface UmaMagic { scenario: UmaScenario; currency: string; outcome: string }

const OUTCOMES: Record<UmaScenario, { currencies: string[]; outcome: string }> = {
  success: { currencies: ['USD', 'EUR', 'MXN'], outcome: 'succeeds' },
  'pending.long': { currencies: ['USD'], outcome: 'stays pending for a long time' },
  'fail.compliance': { currencies: ['USD'], outcome: 'fails a compliance check' },
};

const MAGIC = /^\$(success|pending\.long|fail\.compliance)\.([a-z]{3})@/i;

/** The scenario an address selects, or undefined for an ordinary address or an unsupported currency. */
export function umaMagic(address: string): UmaMagic | undefined {
  const m = MAGIC.exec(address);
  if (!m) return undefined;
  const scenario = m[1]!.toLowerCase() as UmaScenario;
  const currency = m[2]!.toUpperCase();
  const rule = OUTCOMES[scenario];
  if (!rule.currencies.includes(currency)) return undefined;
  return { scenario, currency, outcome: rule.outcome };
}
