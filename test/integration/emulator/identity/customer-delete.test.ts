/**
 * DELETE /customers/{customerId} over HTTP, as the public API description has it: a soft delete
 * (200 with the customer flagged isDeleted), 410 CUSTOMER_DELETED the second time, lists without
 * deleted customers unless isIncludingDeleted=true, and 409 or 400 for whatever would change or add to a
 * deleted customer. Its platformCustomerId is free again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { createBusiness, createIndividual, ownerBody, upload, JPEG } from './support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const ids = (answer: { body: { data: Array<{ id: string }> } }) => answer.body.data.map((c) => c.id);

describe('DELETE /customers/{customerId}', () => {
  it('200 with the customer flagged isDeleted; GET still reads it; lists leave it out unless isIncludingDeleted=true', async () => {
    const c = await createIndividual(t, 'Dora Deleted');
    t.emu.testing.advanceClock(1000);
    const del = await t.call('DELETE', `/customers/${c.id}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body).toMatchObject({ id: c.id, customerType: 'INDIVIDUAL', fullName: 'Dora Deleted', isDeleted: true });
    expect(del.body).not.toHaveProperty('identifier');
    expect(Date.parse(del.body.updatedAt)).toBeGreaterThan(Date.parse(c.updatedAt));
    expect((await t.call('GET', `/customers/${c.id}`)).body).toEqual(del.body);
    expect(ids(await t.call('GET', '/customers?limit=100'))).not.toContain(c.id);
    expect(ids(await t.call('GET', '/customers?limit=100&isIncludingDeleted=false'))).not.toContain(c.id);
    expect(ids(await t.call('GET', '/customers?limit=100&isIncludingDeleted=true'))).toContain(c.id);
  });

  it('the second DELETE is 410 CUSTOMER_DELETED; an unknown customer 404 USER_NOT_FOUND', async () => {
    const c = await createIndividual(t, 'Twice Deleted');
    expect((await t.call('DELETE', `/customers/${c.id}`)).status).toBe(200);
    expect(errorShape(await t.call('DELETE', `/customers/${c.id}`))).toMatchObject({
      status: 410,
      code: 'CUSTOMER_DELETED',
    });
    const unknown = `Customer:${randomUUID()}`;
    expect(errorShape(await t.call('DELETE', `/customers/${unknown}`))).toMatchObject({
      status: 404,
      code: 'USER_NOT_FOUND',
    });
  });

  it('400 naming isIncludingDeleted when it is not a boolean', async () => {
    const answer = await t.call('GET', '/customers?isIncludingDeleted=yes');
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'isIncludingDeleted' }] },
    });
  });

  it('a PATCH, a verification, a document, a KYC link of a deleted individual: refused with the statuses those operations declare', async () => {
    const c = await createIndividual(t, 'Gone Person 003');
    expect((await t.call('DELETE', `/customers/${c.id}`)).status).toBe(200);
    const refusals = [
      await t.call('PATCH', `/customers/${c.id}`, { body: { customerType: 'INDIVIDUAL', nationality: 'FR' } }),
      await t.call('POST', '/verifications', { body: { customerId: c.id } }),
      await upload(t, {
        documentHolder: c.id,
        documentType: 'PASSPORT',
        country: 'US',
        file: { bytes: JPEG, name: 'p.jpg', type: 'image/jpeg' },
      }),
      await t.call('POST', `/customers/${c.id}/kyc-link`, { body: {} }),
    ];
    // The description declares 410 for DELETE only: a 409 where the operation has one, else a 400 naming the field.
    expect(
      refusals.map((a) => [errorShape(a).status, errorShape(a).code, errorShape(a).details?.errors?.[0]?.field]),
    ).toEqual([
      [409, 'CONFLICT', undefined],
      [400, 'INVALID_INPUT', 'customerId'],
      [400, 'INVALID_INPUT', 'documentHolder'],
      [409, 'CONFLICT', undefined],
    ]);
    expect((await t.call('GET', `/customers/${c.id}`)).body.nationality).toBe('US');
    expect((await t.call('GET', `/verifications?customerId=${c.id}`)).body.data).toEqual([]);
  });

  it('400 naming customerId for a beneficial owner of a deleted business', async () => {
    const b = await createBusiness(t, 'REG-001');
    expect((await t.call('DELETE', `/customers/${b.id}`)).body).toMatchObject({
      customerType: 'BUSINESS',
      isDeleted: true,
    });
    expect(errorShape(await t.call('POST', '/beneficial-owners', { body: ownerBody(b.id, 'Owner') }))).toMatchObject({
      status: 400,
      details: { errors: [{ field: 'customerId' }] },
    });
  });

  it("a deleted customer's platformCustomerId may be used again; an active one's stays 409", async () => {
    const platformCustomerId = `pc-${randomUUID()}`;
    const first = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'First Holder', platformCustomerId },
    });
    expect(first.status).toBe(201);
    expect(
      errorShape(await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId } })),
    ).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await t.call('DELETE', `/customers/${first.body.id}`)).status).toBe(200);
    const second = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Second Holder', platformCustomerId },
    });
    expect(second.status, second.text).toBe(201);
    expect(ids(await t.call('GET', `/customers?platformCustomerId=${platformCustomerId}`))).toEqual([second.body.id]);
  });

  it('its internal accounts stay readable (the description says nothing of them)', async () => {
    const c = await createIndividual(t, 'Has Accounts');
    expect((await t.call('DELETE', `/customers/${c.id}`)).status).toBe(200);
    const accounts = await t.call('GET', `/internal-accounts?customerId=${c.id}`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code)).toEqual(
      ['USD', 'EUR'],
    );
  });
});
