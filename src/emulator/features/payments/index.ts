/** Sandbox payments: pay a real-time-funding quote, receive a UMA payment (transactions live in ../transactions). */
import type { Feature } from '../../kernel/feature.js';
import { paymentRoutes } from './routes.js';

export const paymentsFeature: Feature = { name: 'payments', routes: paymentRoutes };
