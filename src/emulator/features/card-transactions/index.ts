/**
 * Card-transaction simulation: the description's ten `/sandbox/cards/{id}/simulate/…` operations
 * (routes.ts), the events they cause (steps.ts, rules.ts) and the money those move (movements.ts).
 * The transactions made are listed by GET /transactions with the others (transactions/routes.ts);
 * the transaction decisions refuse them (decisions.ts).
 */
import type { Feature } from '../../kernel/feature.js';
import { cardDecisionRoutes } from './decisions.js';
import { resumeConfirmations } from './movements.js';
import { cardEvents, cardTransactions } from './records.js';
import { resumeEvents, simulateRoutes } from './routes.js';

export const cardTransactionsFeature: Feature = {
  name: 'card-transactions',
  routes: [...simulateRoutes, ...cardDecisionRoutes],
  tables: [cardTransactions, cardEvents],
  resume(emu) {
    resumeConfirmations(emu);
    resumeEvents(emu);
  },
};
