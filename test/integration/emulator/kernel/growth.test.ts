/**
 * The emulator stays fast as its store grows: a request looks records up through an index, never by
 * reading every stored record. Each test fills a table with thousands of records whose looked-up
 * fields count their reads, then sends one request: a scan would read every one of them, and each
 * request would slow down as the store grows (test/bench/growth.mjs measures the pace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, type AccountRec } from '../../../../src/emulator/features/accounts/accounts.js';
import { customers, type CustomerRec } from '../../../../src/emulator/features/customers/customers.js';
import { testEmulator, type TestEmulator } from '../support.js';

const STORED = 5_000;
let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

/** A record whose `watched` fields count every read into `reads.n`. */
function watched<T extends object>(record: T, fields: readonly (keyof T)[], reads: { n: number }): T {
  for (const field of fields) {
    const value = record[field];
    Object.defineProperty(record, field, {
      enumerable: true,
      get: () => {
        reads.n++;
        return value;
      },
    });
  }
  return record;
}

function storedCustomer(i: number, reads: { n: number }): CustomerRec {
  const now = new Date().toISOString();
  const id = `Customer:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return watched<CustomerRec>(
    {
      id,
      customerType: 'INDIVIDUAL',
      fullName: `Stored ${i}`,
      kycStatus: 'APPROVED',
      umaAddress: `$stored.${i}@emulator.svc.test`,
      platformCustomerId: `stored-${i}`,
      createdAt: now,
      updatedAt: now,
    },
    ['platformCustomerId', 'umaAddress', 'isDeleted'],
    reads,
  );
}

describe('lookups on a request path use an index', () => {
  it(`POST /customers checks platformCustomerId and umaAddress without reading the ${STORED} stored customers`, async () => {
    // A first create builds the indexes from what is stored (one pass); later ones only use them.
    const first = {
      customerType: 'INDIVIDUAL',
      fullName: 'First',
      platformCustomerId: 'first-1',
      umaAddress: '$first@x.test',
    };
    expect((await t.call('POST', '/customers', { body: first })).status).toBe(201);
    const reads = { n: 0 };
    const table = t.emu.testing.table(customers);
    for (let i = 0; i < STORED; i++) {
      const c = storedCustomer(i, reads);
      table.set(c.id, c);
    }
    reads.n = 0;
    const made = await t.call('POST', '/customers', {
      body: {
        customerType: 'INDIVIDUAL',
        fullName: 'Fresh Customer',
        platformCustomerId: 'fresh-1',
        umaAddress: '$fresh.one@emulator.svc.test',
      },
    });
    expect(made.status).toBe(201);
    expect(reads.n).toBeLessThan(20);

    // The index still finds what is taken, among all of them.
    const taken = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Again', platformCustomerId: `stored-${STORED - 7}` },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain(`stored-${STORED - 7}`);
    const uma = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Again', umaAddress: `$STORED.${STORED - 3}@emulator.svc.test` },
    });
    expect(uma.status).toBe(409);
    expect(uma.body.code).toBe('UMA_ADDRESS_EXISTS');
    expect(reads.n).toBeLessThan(60);
  });

  it('a deleted customer frees its platformCustomerId at once (the index follows the change)', async () => {
    const first = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Leaving', platformCustomerId: 'reused-1' },
    });
    expect(first.status).toBe(201);
    expect((await t.call('DELETE', `/customers/${first.body.id}`)).status).toBe(200);
    const second = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Arriving', platformCustomerId: 'reused-1' },
    });
    expect(second.status).toBe(201);
  });

  it("a customer's accounts are found without reading every stored account", async () => {
    const reads = { n: 0 };
    const table = t.emu.testing.table(accounts);
    const now = new Date().toISOString();
    for (let i = 0; i < STORED; i++) {
      const a: AccountRec = watched<AccountRec>(
        {
          id: `InternalAccount:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          customerId: `Customer:00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
          organizationId: String(i),
          type: 'EMBEDDED_WALLET',
          status: 'ACTIVE',
          currency: 'USD',
          balance: 0,
          createdAt: now,
          updatedAt: now,
        },
        ['customerId', 'currency'],
        reads,
      );
      table.set(a.id, a);
    }
    reads.n = 0;
    const made = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'With Accounts' },
    });
    expect(made.status).toBe(201);
    const listed = await t.call('GET', `/customers/internal-accounts?customerId=${made.body.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code)).toEqual([
      'USD',
      'EUR',
    ]);
    expect(reads.n).toBeLessThan(20);
  });
});
