/**
 * Every trigger scenario, as data: one per row of the spec's sandbox magic tables (plus the
 * card state machine), named `<area>.<outcome>`. The magic values and the expected outcomes are
 * read from the tables in src/service, never written twice; a recipe (recipes/) builds the
 * resources and reports what the service answered, which a test compares with `expect`.
 */
import type { Scenario } from './scenario.js';
import { auth } from './scenarios/auth.js';
import { cardTransactions, cards } from './scenarios/cards.js';
import { business, individual } from './scenarios/identity.js';
import { beneficiaries, quotes, transfers, uma } from './scenarios/money.js';

export type { Area, RecipeName, Scenario } from './scenario.js';
export { UMA_SANDBOX_DOMAIN } from './scenarios/money.js';

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

/** The scenario of that name, in any case (`KYC.Pending` is kyc.pending). */
export function findScenario(name: string): Scenario | undefined {
  const wanted = name.trim().toLowerCase();
  return SCENARIOS.find((s) => s.name === wanted);
}
