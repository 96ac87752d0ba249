/** Internal accounts and balances (see accounts.ts); currencies and rates in currencies.ts. */
import type { Feature } from '../../kernel/feature.js';
import { accounts } from './accounts.js';
import { accountRoutes } from './routes.js';

export const accountsFeature: Feature = { name: 'accounts', routes: accountRoutes, tables: [accounts] };
