/**
 * Every resource operation, declared once (commands/resources/operation.ts): adding one is an entry
 * in a file of table/. The command root loads this module only when one of its nouns runs.
 */
import type { Operation } from './operation.js';
import { accounts } from './table/accounts.js';
import { auth } from './table/auth.js';
import { cards } from './table/cards.js';
import { customers } from './table/customers.js';
import { lookups } from './table/lookups.js';
import { payments } from './table/payments.js';

export const OPERATIONS: readonly Operation[] = [...customers, ...accounts, ...auth, ...payments, ...cards, ...lookups];

/** The operations of one noun, in table order. */
export function operationsOf(noun: string): Operation[] {
  return OPERATIONS.filter((op) => op.noun === noun);
}
