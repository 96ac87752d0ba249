/**
 * The sandbox's magic UMA addresses (spec "UMA destination addresses", the table in src/service):
 * `$<scenario>.<currency>@domain` steers the outcome. Knowing them lets the CLI say what a result
 * means instead of leaving a user to wonder why a payment stayed pending or failed.
 */
import { umaScenario, type UmaScenarioName } from '../service/money-magic.js';

type UmaScenario = UmaScenarioName;

export interface UmaMagic {
  scenario: UmaScenario;
  currency: string;
  outcome: string;
}

/** The scenario an address selects, or undefined for an ordinary address or an unsupported currency. */
export function umaMagic(address: string): UmaMagic | undefined {
  const magic = umaScenario(address);
  return magic && { scenario: magic.scenario, currency: magic.currency, outcome: magic.spec };
}
