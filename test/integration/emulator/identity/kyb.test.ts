/**
 * Business KYB and beneficial owners over real HTTP, row by row of the spec's tables:
 * registrationNumber 002 → REJECTED and other → APPROVED at once (then 400), 001/003 →
 * RESOLVE_ERRORS until business information, business documents and an owner are complete;
 * owners' KYC by lastName when the business resolves; CUSTOMER.KYB_* and VERIFICATION.* events.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorShape, useEmulatorWithWebhooks } from '../support.js';
import {
  ADDRESS,
  COMPLETE_BUSINESS_INFO,
  PDF,
  createBusiness,
  createIndividual,
  eventsAbout,
  ownerBody,
  upload,
  verify,
} from './support.js';

const { t, hooks } = useEmulatorWithWebhooks();

const addOwner = async (customerId: string, lastName: string) => {
  const answer = await t.call('POST', '/beneficial-owners', { body: ownerBody(customerId, lastName) });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
};
const ownerStatus = async (id: string): Promise<string> =>
  (await t.call('GET', `/beneficial-owners/${id}`)).body.kycStatus;
const kyb = async (id: string): Promise<string> => (await t.call('GET', `/customers/${id}`)).body.kybStatus;
const uploadFor = (holder: string, documentType: string) =>
  upload(t, {
    documentHolder: holder,
    documentType,
    country: 'US',
    file: { bytes: PDF, name: `${documentType.toLowerCase()}.pdf`, type: 'application/pdf' },
  });

describe('immediate decisions, skipping validation', () => {
  it.each([
    ['002', 'REG-002', 'REJECTED'],
    ['any other ending', 'REG-123', 'APPROVED'],
    ['no registrationNumber at all (other)', undefined, 'APPROVED'],
  ])(
    '%s (registrationNumber %s) → verificationStatus and kybStatus %s, then 400',
    async (_row, registrationNumber, outcome) => {
      // Nothing but what creation needs: no address, no documents, no owners.
      const created = await t.call('POST', '/customers', {
        body: {
          customerType: 'BUSINESS',
          businessInfo: { ...COMPLETE_BUSINESS_INFO, ...(registrationNumber ? { registrationNumber } : {}) },
        },
      });
      const b = created.body;
      const answer = await verify(t, b.id);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: expect.stringMatching(/^Verification:/),
        customerId: b.id,
        verificationStatus: outcome,
        errors: [],
      });
      expect(await kyb(b.id)).toBe(outcome);
      const again = await verify(t, b.id);
      expect(errorShape(again)).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { errors: [{ field: 'customerId' }] },
      });
      const events = await eventsAbout(t, hooks, b.id);
      expect(events.map((d) => d.body.type)).toEqual([`VERIFICATION.${outcome}`, `CUSTOMER.KYB_${outcome}`]);
      expect(events[0]!.body.data).toEqual(answer.body);
      expect(events[1]!.body.data).toMatchObject({ id: b.id, customerType: 'BUSINESS', kybStatus: outcome });
    },
  );
});

describe('beneficial owner KYC resolves with the business', () => {
  it.each([
    ['APPROVED business (other)', 'REG-777'],
    ['REJECTED business (002)', 'REG-002'],
  ])(
    '%s: owners ending 001 → PENDING, 002 → REJECTED, other → APPROVED; later owners at once',
    async (_name, registrationNumber) => {
      const b = await createBusiness(t, registrationNumber);
      const owners = [
        await addOwner(b.id, 'Adams001'),
        await addOwner(b.id, 'Baker002'),
        await addOwner(b.id, 'Clark'),
      ];
      for (const o of owners) expect(o.kycStatus).toBe('UNVERIFIED');
      await verify(t, b.id);
      expect(await Promise.all(owners.map((o) => ownerStatus(o.id)))).toEqual(['PENDING', 'REJECTED', 'APPROVED']);
      // The CUSTOMER.KYB_* event's business lists its owners already resolved.
      const event = (await eventsAbout(t, hooks, b.id)).find((d) => d.body.type.startsWith('CUSTOMER.KYB_'));
      expect(event!.body.data.beneficialOwners.map((o: { kycStatus: string }) => o.kycStatus)).toEqual([
        'PENDING',
        'REJECTED',
        'APPROVED',
      ]);
      expect((await addOwner(b.id, 'Late002')).kycStatus).toBe('REJECTED');
    },
  );
});

describe.each([
  ['001', 'REG-001'],
  ['003', 'REG-003'],
])('registrationNumber ending %s: RESOLVE_ERRORS until complete', (_suffix, registrationNumber) => {
  it('lists each missing item, shrinks as they are supplied, then PENDING_MANUAL_REVIEW with kybStatus PENDING', async () => {
    const b = await createBusiness(t, registrationNumber, COMPLETE_BUSINESS_INFO, null);
    const kinds = (errors: Array<{ type: string; field?: string }>) => errors.map((e) => e.field ?? e.type);

    const first = await verify(t, b.id);
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    // Creation already required the description's BusinessInfo fields; the address may come later.
    expect(kinds(first.body.errors)).toEqual([
      'address',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
      'MISSING_BENEFICIAL_OWNER',
    ]);
    for (const e of first.body.errors) expect(e).toMatchObject({ resourceId: b.id, reason: expect.any(String) });
    expect(first.body.errors[1]).toMatchObject({
      acceptedDocumentTypes: [
        'CERTIFICATE_OF_INCORPORATION',
        'ARTICLES_OF_INCORPORATION',
        'ARTICLES_OF_ASSOCIATION',
        'STATE_REGISTRY_EXCERPT',
      ],
    });
    expect(first.body.errors[0]).toMatchObject({ type: 'MISSING_FIELD' });

    await t.call('PATCH', `/customers/${b.id}`, {
      body: { customerType: 'BUSINESS', address: ADDRESS },
    });
    expect(kinds((await verify(t, b.id)).body.errors)).toEqual([
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
      'MISSING_BENEFICIAL_OWNER',
    ]);

    for (const type of ['CERTIFICATE_OF_INCORPORATION', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL'])
      expect((await uploadFor(b.id, type)).status).toBe(201);
    expect(kinds((await verify(t, b.id)).body.errors)).toEqual(['MISSING_BENEFICIAL_OWNER']);
    expect(await kyb(b.id)).toBe('UNVERIFIED');

    const owner = await addOwner(b.id, 'Owner002');
    const done = await verify(t, b.id);
    expect(done.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect(await kyb(b.id)).toBe('PENDING');
    // No automatic decision: the business has not resolved, so neither has its owner; submitting again is no 400.
    expect(await ownerStatus(owner.id)).toBe('UNVERIFIED');
    expect((await verify(t, b.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');

    const events = await eventsAbout(t, hooks, b.id);
    expect(events.map((d) => d.body.type)).toEqual([
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
      'CUSTOMER.KYB_PENDING',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
    ]);
  });
});

describe('POST/GET/PATCH /beneficial-owners', () => {
  it('201 BeneficialOwner; GET; the list by customerId pages', async () => {
    const b = await createBusiness(t, 'REG-500');
    const o = await addOwner(b.id, 'Shape');
    expect(o).toEqual({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: b.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 60,
      personalInfo: ownerBody(b.id, 'Shape').personalInfo,
      kycStatus: 'UNVERIFIED',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await t.call('GET', `/beneficial-owners/${o.id}`)).body).toEqual(o);
    const second = await addOwner(b.id, 'Second');
    const page = await t.call('GET', `/beneficial-owners?customerId=${b.id}&limit=1`);
    expect(page.body).toMatchObject({ data: [o], hasMore: true, totalCount: 2 });
    expect((await t.call('GET', `/beneficial-owners?customerId=${b.id}&cursor=${page.body.nextCursor}`)).body).toEqual({
      data: [second],
      hasMore: false,
      totalCount: 2,
    });
  });

  it('PATCH is partial, personalInfo too', async () => {
    const b = await createBusiness(t, 'REG-501');
    const o = await addOwner(b.id, 'Patchable');
    const answer = await t.call('PATCH', `/beneficial-owners/${o.id}`, {
      body: { ownershipPercentage: 30, personalInfo: { middleName: 'Q' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ownershipPercentage: 30,
      roles: ['UBO', 'DIRECTOR'],
      personalInfo: { ...o.personalInfo, middleName: 'Q' },
    });
    const bad = await t.call('PATCH', `/beneficial-owners/${o.id}`, {
      body: { ownershipPercentage: -1, roles: ['KING'], personalInfo: { nationality: 'USA' } },
    });
    expect((errorShape(bad).details.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'ownershipPercentage',
      'personalInfo.nationality',
      'roles[0]',
    ]);
  });

  it('400 lists every bad field at once', async () => {
    const b = await createBusiness(t, 'REG-502');
    const answer = await t.call('POST', '/beneficial-owners', {
      body: {
        customerId: b.id,
        roles: [],
        ownershipPercentage: 101,
        personalInfo: {
          firstName: 'No',
          birthDate: '1980-02-31',
          nationality: 'US',
          idType: 'PASSPORT',
          identifier: 'x',
          address: { line1: 'a', city: 'b', postalCode: 'c', country: 'usa' },
        },
      },
    });
    const fields = (errorShape(answer).details.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields.sort()).toEqual([
      'ownershipPercentage',
      'personalInfo.address.country',
      'personalInfo.birthDate',
      'personalInfo.idType',
      'personalInfo.lastName',
    ]);
    const empty = await t.call('POST', '/beneficial-owners', { body: {} });
    expect((errorShape(empty).details.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'customerId',
      'ownershipPercentage',
      'personalInfo',
      'roles',
    ]);
  });

  it('400 for an individual customer, 404 for unknown customers and owners, 400 for a list without customerId', async () => {
    const person = await createIndividual(t, 'Not A Business');
    const individual = await t.call('POST', '/beneficial-owners', { body: ownerBody(person.id, 'X') });
    expect(errorShape(individual)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'customerId' }] },
    });
    const unknown = await t.call('POST', '/beneficial-owners', { body: ownerBody(`Customer:${randomUUID()}`, 'X') });
    expect(errorShape(unknown)).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(errorShape(await t.call('GET', `/beneficial-owners/BeneficialOwner:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'REFERENCE_NOT_FOUND',
    });
    expect(
      errorShape(await t.call('PATCH', `/beneficial-owners/BeneficialOwner:${randomUUID()}`, { body: {} })),
    ).toMatchObject({ status: 404 });
    expect(errorShape(await t.call('GET', '/beneficial-owners')).details.errors[0].field).toBe('customerId');
  });
});
