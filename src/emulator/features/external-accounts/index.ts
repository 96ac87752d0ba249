/**
 * External accounts: the description's account variants, the spec's beneficiary name check (1xx
 * suffixes) and ownership verification of self-custody wallets. Listed before customers in
 * features.ts so that /customers/external-accounts is not read as /customers/{id}.
 */
import type { Feature } from '../../kernel/feature.js';
import { ownershipChallenges } from './ownership.js';
import { externalAccounts } from './records.js';
import { externalAccountRoutes } from './routes.js';

export const externalAccountsFeature: Feature = {
  name: 'external-accounts',
  routes: externalAccountRoutes,
  tables: [externalAccounts, ownershipChallenges],
  sweep(emu, now) {
    emu.table(ownershipChallenges).deleteWhere((c) => c.expiresAtMs <= now);
  },
};
