/**
 * Transactions and their courses (course.ts): the one place money moves after a quote, transfer or
 * sandbox payment starts, and where payment webhooks come from.
 */
import type { Feature } from '../../kernel/feature.js';
import { resumeApprovals } from './approval.js';
import { resumeTransactions } from './course.js';
import { migrateTransactions } from './migrate.js';
import { transactionRoutes } from './routes.js';
import { transactions } from './transactions.js';

export const transactionsFeature: Feature = {
  name: 'transactions',
  routes: transactionRoutes,
  tables: [transactions],
  resume(emu) {
    migrateTransactions(emu);
    resumeTransactions(emu);
    resumeApprovals(emu);
  },
};
