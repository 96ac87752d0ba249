/**
 * Customers (see customers.ts); the start-up fixture is an APPROVED individual with a UMA address,
 * an email and a phone number, so both OTP credential types can be added to its wallet at once.
 */
import { defineFeature } from '../../kernel/feature.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { accountOf, accounts } from '../accounts/accounts.js';
import { UMA_DOMAIN, customers, insertCustomer } from './customers.js';
import { customerRoutes } from './routes.js';

/** A number of the range kept for fiction (555-01xx), in E.164: the SMS_OTP credential's nickname. */
const FIXTURE_PHONE = '+15555550100';

export const customersFeature = defineFeature({
  name: 'customers',
  routes: customerRoutes,
  tables: [customers],
  fixtureKeys: ['accountId', 'email', 'phoneNumber', 'customerId', 'umaAddress'],
  fixtures(emu, made: Partial<Fixtures<'accountId' | 'customerId'>>) {
    const account = made.accountId ? emu.table(accounts).get(made.accountId) : undefined;
    const kept =
      account && account.customerId === made.customerId ? emu.table(customers).get(account.customerId) : undefined;
    if (kept) {
      // A state file written before the fixture had a phone number gets it, so `credentials add sms` works there too.
      if (kept.phoneNumber === undefined) emu.table(customers).set(kept.id, { ...kept, phoneNumber: FIXTURE_PHONE });
      return { phoneNumber: emu.table(customers).get(kept.id)!.phoneNumber! };
    }
    const email = `ada@${UMA_DOMAIN}`;
    const fresh = insertCustomer(emu, {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      email,
      phoneNumber: FIXTURE_PHONE,
      kycStatus: 'APPROVED',
      umaAddress: `$ada@${UMA_DOMAIN}`,
    });
    return {
      customerId: fresh.id,
      accountId: accountOf(emu, fresh.id, 'USD')!.id,
      email,
      phoneNumber: FIXTURE_PHONE,
      umaAddress: fresh.umaAddress,
    };
  },
});
