/** Sandbox payments (pay a quote, receive a UMA payment) and the transactions they make. */
import type { Feature } from '../../kernel/feature.js';
import { paymentRoutes } from './routes.js';
import { transactions } from './transactions.js';

export const paymentsFeature: Feature = { name: 'payments', routes: paymentRoutes, tables: [transactions] };
