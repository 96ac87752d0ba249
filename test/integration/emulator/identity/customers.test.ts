/**
 * Customers over real HTTP: create (individual and business), get, PATCH (supplying missing data),
 * the paged list, and every refusal with the spec's status, code and body shape.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, useEmulatorWithWebhooks, type TestEmulator } from '../support.js';
import {
  ADDRESS,
  COMPLETE_BUSINESS_INFO,
  COMPLETE_INDIVIDUAL,
  createBusiness,
  createIndividual,
  eventsAbout,
  ownerBody,
} from './support.js';
import { randomToken } from '../../../helpers/random-data.js';

const { t, hooks } = useEmulatorWithWebhooks();

const fieldsOf = (answer: Awaited<ReturnType<TestEmulator['call']>>): string[] => {
  const e = errorShape(answer);
  expect(e).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  return (e.details.errors as Array<{ field: string; message: string }>).map((x) => x.field);
};

describe('POST /customers', () => {
  it('an individual with every field: 201, identifier never returned', async () => {
    const c = await createIndividual(t, 'Ivy Individual', {
      ...COMPLETE_INDIVIDUAL,
      email: 'ivy@example.com',
      phoneNumber: '+14155550100',
    });
    expect(c).toMatchObject({
      id: expect.stringMatching(/^Customer:[0-9a-f-]{36}$/),
      customerType: 'INDIVIDUAL',
      fullName: 'Ivy Individual',
      birthDate: '1990-01-31',
      nationality: 'US',
      idType: 'SSN',
      address: ADDRESS,
      email: 'ivy@example.com',
      phoneNumber: '+14155550100',
      kycStatus: 'APPROVED',
      umaAddress: expect.stringMatching(/^\$.+@/),
      platformCustomerId: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(c)).not.toContain('123-45-6789');
    expect((await t.call('GET', `/customers/${c.id}`)).body).toEqual(c);
  });

  it('a business: 201 kybStatus UNVERIFIED, businessInfo kept, no kycStatus', async () => {
    const b = await createBusiness(t, 'REG-100');
    expect(b).toMatchObject({
      customerType: 'BUSINESS',
      kybStatus: 'UNVERIFIED',
      businessInfo: { ...COMPLETE_BUSINESS_INFO, registrationNumber: 'REG-100' },
      address: ADDRESS,
    });
    expect(b).not.toHaveProperty('kycStatus');
  });

  it('an individual without a name is UNVERIFIED; its first name picks its KYC row (CUSTOMER.KYC_PENDING)', async () => {
    const c = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL' } });
    expect(c.body.kycStatus).toBe('UNVERIFIED');
    const named = await t.call('PATCH', `/customers/${c.body.id}`, {
      body: { customerType: 'INDIVIDUAL', fullName: 'Late Name001' },
    });
    expect(named.body).toMatchObject({ fullName: 'Late Name001', kycStatus: 'PENDING' });
    // A later rename does not pick another row: the row is decided once.
    const renamed = await t.call('PATCH', `/customers/${c.body.id}`, {
      body: { customerType: 'INDIVIDUAL', fullName: 'Late Name002' },
    });
    expect(renamed.body.kycStatus).toBe('PENDING');
    const events = await eventsAbout(t, hooks, c.body.id);
    expect(events.map((d) => d.body.type)).toEqual(['CUSTOMER.KYC_PENDING']);
    expect(events[0]!.body.data).toMatchObject({ id: c.body.id, kycStatus: 'PENDING', fullName: 'Late Name001' });
  });

  it.each([
    ['no businessInfo', { customerType: 'BUSINESS' }, ['businessInfo']],
    [
      'business fields all wrong at once',
      {
        customerType: 'BUSINESS',
        businessInfo: {
          country: 'USA',
          incorporatedOn: '2020-13-01',
          entityType: 'GUILD',
          countriesOfOperation: ['US', 'x'],
        },
        address: { line1: 'x', city: 'y', country: 'US' },
      },
      [
        'businessInfo.legalName',
        'businessInfo.country',
        'businessInfo.incorporatedOn',
        'businessInfo.entityType',
        'businessInfo.taxId',
        'businessInfo.countriesOfOperation[1]',
        'address.postalCode',
      ],
    ],
    [
      'a business without what the description requires of BusinessInfo',
      { customerType: 'BUSINESS', businessInfo: { legalName: 'Half Co', registrationNumber: 'R-1' } },
      ['businessInfo.country', 'businessInfo.incorporatedOn', 'businessInfo.taxId'],
    ],
    [
      'individual fields all wrong at once',
      {
        customerType: 'INDIVIDUAL',
        fullName: 'A',
        idType: 'PASSPORT',
        identifier: '123456789',
        email: 'nope',
        phoneNumber: '555-0100',
        umaAddress: 'bob@x',
      },
      ['email', 'phoneNumber', 'idType'],
    ],
    ['no customerType', { fullName: 'Nobody' }, ['customerType']],
  ])('400 INVALID_INPUT listing every bad field: %s', async (_name, body, fields) => {
    const answer = await t.call('POST', '/customers', { body });
    expect(fieldsOf(answer).sort()).toEqual([...fields].sort());
  });

  it('409 UMA_ADDRESS_EXISTS and 409 CONFLICT (platformCustomerId)', async () => {
    const uma = `$taken.${randomToken(8)}@example.com`;
    const first = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'First', umaAddress: uma, platformCustomerId: `p-${uma}` },
    });
    expect(first.status).toBe(201);
    const sameUma = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Second', umaAddress: uma },
    });
    expect(errorShape(sameUma)).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
    const samePlatformId = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Third', platformCustomerId: `p-${uma}` },
    });
    expect(errorShape(samePlatformId)).toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});

describe('GET /customers/{customerId}', () => {
  it('404 USER_NOT_FOUND for an unknown customer; 404 for a path that is no customer id', async () => {
    expect(errorShape(await t.call('GET', `/customers/Customer:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'USER_NOT_FOUND',
    });
    expect((await t.call('GET', '/customers/nobody')).status).toBe(404);
  });

  it('takes the id with its colon percent-encoded; other methods are 405 with Allow', async () => {
    const id = t.emu.fixtures.customerId;
    expect((await t.call('GET', `/customers/${encodeURIComponent(id)}`)).body.id).toBe(id);
    const put = await t.call('PUT', `/customers/${id}`, { body: {} });
    expect(errorShape(put)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(put.headers.allow).toBe('GET, PATCH, DELETE');
  });
});

describe('PATCH /customers/{customerId}', () => {
  it('supplies missing data; identifier stays write-only; updatedAt moves with the clock', async () => {
    const c = await createIndividual(t, 'Patchy Person', { birthDate: '1990-01-31' });
    t.emu.testing.advanceClock(60_000);
    const answer = await t.call('PATCH', `/customers/${c.id}`, {
      body: {
        customerType: 'INDIVIDUAL',
        nationality: 'GB',
        idType: 'ITIN',
        identifier: '912-34-5678',
        address: ADDRESS,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: c.id,
      fullName: 'Patchy Person',
      birthDate: '1990-01-31',
      nationality: 'GB',
      idType: 'ITIN',
      address: ADDRESS,
      createdAt: c.createdAt,
    });
    expect(answer.body).not.toHaveProperty('identifier');
    expect(Date.parse(answer.body.updatedAt) - Date.parse(c.updatedAt)).toBeGreaterThanOrEqual(60_000);
    expect((await t.call('GET', `/customers/${c.id}`)).body).toEqual(answer.body);
  });

  it('a business PATCH merges businessInfo field by field', async () => {
    const b = await createBusiness(t, 'REG-200', { ...COMPLETE_BUSINESS_INFO, legalName: 'Half Done Ltd' }, null);
    const answer = await t.call('PATCH', `/customers/${b.id}`, {
      body: {
        customerType: 'BUSINESS',
        businessInfo: { taxId: '98-7654321', doingBusinessAs: 'HDL' },
        address: ADDRESS,
      },
    });
    expect(answer.body).toMatchObject({
      businessInfo: {
        legalName: 'Half Done Ltd',
        country: 'US',
        registrationNumber: 'REG-200',
        taxId: '98-7654321',
        doingBusinessAs: 'HDL',
      },
      address: ADDRESS,
    });
  });

  it.each([
    ['no customerType', { nationality: 'US' }, ['customerType']],
    ['the other customerType', { customerType: 'BUSINESS' }, ['customerType']],
    [
      'email and phoneNumber together',
      { customerType: 'INDIVIDUAL', email: 'a@b.co', phoneNumber: '+14155550100' },
      ['phoneNumber'],
    ],
    [
      'several bad fields at once',
      {
        customerType: 'INDIVIDUAL',
        birthDate: '31/01/1990',
        nationality: 'us',
        address: { line1: 'x', city: 'y', postalCode: '' },
      },
      ['birthDate', 'nationality', 'address.country'],
    ],
  ])('400 INVALID_INPUT: %s', async (_name, body, fields) => {
    const c = await createIndividual(t, 'Refused Patch');
    expect(fieldsOf(await t.call('PATCH', `/customers/${c.id}`, { body })).sort()).toEqual([...fields].sort());
  });

  it('404 USER_NOT_FOUND for an unknown customer; 409 UMA_ADDRESS_EXISTS for a taken address', async () => {
    const unknown = await t.call('PATCH', `/customers/Customer:${randomUUID()}`, {
      body: { customerType: 'INDIVIDUAL' },
    });
    expect(errorShape(unknown)).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    const c = await createIndividual(t, 'Wants Ada');
    const taken = await t.call('PATCH', `/customers/${c.id}`, {
      body: { customerType: 'INDIVIDUAL', umaAddress: t.emu.fixtures.umaAddress },
    });
    expect(errorShape(taken)).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
  });
});

describe('GET /customers (paged)', () => {
  let own: TestEmulator;
  const ids: string[] = [];
  beforeAll(async () => {
    own = await testEmulator();
    ids.push(own.emu.fixtures.customerId);
    for (const name of ['P One', 'P Two', 'P Three']) {
      ids.push(
        (await own.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: name } })).body.id,
      );
      own.emu.testing.advanceClock(1000);
    }
    ids.push(
      (
        await own.call('POST', '/customers', {
          body: { customerType: 'BUSINESS', businessInfo: { ...COMPLETE_BUSINESS_INFO, legalName: 'P Biz' } },
        })
      ).body.id,
    );
  });
  afterAll(() => own.close());

  it('pages in creation order with {data, hasMore, nextCursor, totalCount}', async () => {
    const seen: string[] = [];
    let path = '/customers?limit=2';
    const pages: any[] = [];
    for (;;) {
      const page = await own.call('GET', path);
      expect(page.status).toBe(200);
      pages.push(page.body);
      seen.push(...page.body.data.map((c: { id: string }) => c.id));
      if (!page.body.hasMore) break;
      path = `/customers?limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`;
    }
    expect(seen).toEqual(ids);
    expect(pages.map((p) => [p.data.length, p.hasMore, p.totalCount])).toEqual([
      [2, true, 5],
      [2, true, 5],
      [1, false, 5],
    ]);
    expect(pages.at(-1)).not.toHaveProperty('nextCursor');
    expect((await own.call('GET', '/customers')).body.data).toHaveLength(5); // default limit 20
  });

  it('filters by customerType, platformCustomerId and createdAfter', async () => {
    expect(
      (await own.call('GET', '/customers?customerType=BUSINESS')).body.data.map((c: { id: string }) => c.id),
    ).toEqual([ids[4]]);
    const third = (await own.call('GET', `/customers/${ids[3]}`)).body;
    expect((await own.call('GET', `/customers?platformCustomerId=${third.platformCustomerId}`)).body.data).toEqual([
      third,
    ]);
    const after = await own.call('GET', `/customers?createdAfter=${encodeURIComponent(third.createdAt)}`);
    expect(after.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4]]);
  });

  it('400 INVALID_INPUT lists every bad parameter at once', async () => {
    const answer = await own.call('GET', '/customers?limit=0&customerType=PERSON&cursor=%21%21&createdAfter=yesterday');
    expect(fieldsOf(answer).sort()).toEqual(['createdAfter', 'customerType', 'limit']);
    expect(fieldsOf(await own.call('GET', '/customers?limit=101'))).toEqual(['limit']);
    expect(fieldsOf(await own.call('GET', `/customers?cursor=${Buffer.from('-3').toString('base64url')}`))).toEqual([
      'cursor',
    ]);
  });
});

describe("a business customer's beneficial owners", () => {
  it("are not taken in the create body (the description's create request has none): 400 naming beneficialOwners with every other bad field", async () => {
    const answer = await t.call('POST', '/customers', {
      body: {
        customerType: 'BUSINESS',
        businessInfo: COMPLETE_BUSINESS_INFO,
        beneficialOwners: [{ roles: ['UBO'] }],
      },
    });
    expect(fieldsOf(answer)).toEqual(['beneficialOwners']);
    expect(answer.body.details.errors[0].message).toMatch(/POST \/beneficial-owners/);
  });

  it("are listed in the business's answers once made with POST /beneficial-owners; an individual has no such field", async () => {
    const b = await createBusiness(t, 'OWNERS-004');
    expect(b.beneficialOwners).toEqual([]);
    const owner = await t.call('POST', '/beneficial-owners', { body: ownerBody(b.id, 'Listed') });
    expect(owner.status).toBe(201);
    expect((await t.call('GET', `/customers/${b.id}`)).body.beneficialOwners).toEqual([owner.body]);
    const listed = (await t.call('GET', `/customers?customerType=BUSINESS&limit=100`)).body.data.find(
      (c: { id: string }) => c.id === b.id,
    );
    expect(listed.beneficialOwners.map((o: { id: string }) => o.id)).toEqual([owner.body.id]);
    expect(await createIndividual(t, 'Solo Person')).not.toHaveProperty('beneficialOwners');
  });
});
