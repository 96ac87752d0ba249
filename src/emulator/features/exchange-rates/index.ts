/** Exchange rates and platform fees: one table (rates.ts) for quotes and GET /exchange-rates. */
import type { Feature } from '../../kernel/feature.js';
import { exchangeRateRoutes } from './routes.js';

export const exchangeRatesFeature: Feature = { name: 'exchange-rates', routes: exchangeRateRoutes };
