/** Customers (see customers.ts); the start-up fixture is an APPROVED individual with a UMA address. */
import type { Feature } from '../../kernel/feature.js';
import { accountOf, accounts } from '../accounts/accounts.js';
import { UMA_DOMAIN, customers, insertCustomer } from './customers.js';
import { customerRoutes } from './routes.js';

export const customersFeature: Feature = {
  name: 'customers',
  routes: customerRoutes,
  tables: [customers],
  fixtures(emu, made) {
    const account = made.accountId ? emu.table(accounts).get(made.accountId) : undefined;
    if (account && account.customerId === made.customerId && emu.table(customers).has(account.customerId)) return {};
    const email = `ada@${UMA_DOMAIN}`;
    const fresh = insertCustomer(emu, {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      email,
      kycStatus: 'APPROVED',
      umaAddress: `$ada@${UMA_DOMAIN}`,
    });
    return {
      customerId: fresh.id,
      accountId: accountOf(emu, fresh.id, 'USD')!.id,
      email,
      umaAddress: fresh.umaAddress,
    };
  },
};
