/**
 * Internal accounts and balances (accounts.ts, ledger.ts); currencies in currencies.ts. The
 * platform's own accounts are made at start (fixtures) when missing.
 */
import type { Feature } from '../../kernel/feature.js';
import { accounts, ensurePlatformAccounts } from './accounts.js';
import { accountRoutes } from './routes.js';

export const accountsFeature: Feature = {
  name: 'accounts',
  routes: accountRoutes,
  tables: [accounts],
  fixtures(emu) {
    ensurePlatformAccounts(emu);
    return {};
  },
};
