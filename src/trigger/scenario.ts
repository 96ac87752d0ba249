/** What a trigger scenario is (catalog.ts lists them), and the helpers that pick its magic values. */
import { suffixRow, type SuffixTable } from '../service/index.js';

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
export const named = (prefix: string, suffix: string) => `${prefix} ${suffix}`;
/** For "any other ending" rows: a value that ends in none of the table's suffixes. */
export function otherEnding<T>(table: SuffixTable<T>, candidate: string): string {
  if (suffixRow(table, candidate) !== table.otherwise)
    throw new Error(`${candidate} is a magic value of ${table.name}`);
  return candidate;
}
