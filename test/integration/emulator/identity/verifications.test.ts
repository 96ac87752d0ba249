/**
 * Individual KYC through POST /verifications over real HTTP, row by row of the spec's table: each
 * missing item of "Required for submission" as its own error, 001 → PENDING_MANUAL_REVIEW with
 * kycStatus PENDING, 003 → POOR_QUALITY_DOCUMENT, 002 and approved → 400, fix-and-resubmit, and
 * the VERIFICATION.* / CUSTOMER.KYC_* webhooks each change emits (signatures checked).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorShape, useEmulatorWithWebhooks } from '../support.js';
import {
  ADDRESS,
  COMPLETE_INDIVIDUAL,
  PDF,
  createIndividual,
  eventsAbout,
  upload,
  uploadPassport,
  verify,
} from './support.js';

const { t, hooks } = useEmulatorWithWebhooks();

const IDENTITY_TYPES = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'];
const without = (key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(COMPLETE_INDIVIDUAL).filter(([k]) => k !== key));
const missingField = (resourceId: string, field: string) => ({
  resourceId,
  type: 'MISSING_FIELD',
  field,
  reason: expect.any(String),
});
const missingDocument = (resourceId: string) => ({
  resourceId,
  type: 'MISSING_IDENTITY_DOCUMENT',
  acceptedDocumentTypes: IDENTITY_TYPES,
  reason: expect.any(String),
});

function checkShape(body: any, customerId: string, verificationStatus: string): void {
  expect(body).toMatchObject({
    id: expect.stringMatching(/^Verification:[0-9a-f-]{36}$/),
    customerId,
    verificationStatus,
    errors: expect.any(Array),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
}

describe('one RESOLVE_ERRORS entry per missing item (suffix 001)', () => {
  it.each(['birthDate', 'nationality', 'idType', 'identifier', 'address'])(
    'missing %s → MISSING_FIELD naming it',
    async (field) => {
      const c = await createIndividual(t, 'Missing Bits001', without(field));
      await uploadPassport(t, c.id);
      const answer = await verify(t, c.id);
      expect(answer.status).toBe(200);
      checkShape(answer.body, c.id, 'RESOLVE_ERRORS');
      expect(answer.body.errors).toEqual([missingField(c.id, field)]);
      expect((await t.call('GET', `/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
    },
  );

  it('no identity document → MISSING_IDENTITY_DOCUMENT with acceptedDocumentTypes', async () => {
    const c = await createIndividual(t, 'No Papers001');
    const answer = await verify(t, c.id);
    expect(answer.body.errors).toEqual([missingDocument(c.id)]);
  });

  it('a document of another group does not count as an identity document', async () => {
    const c = await createIndividual(t, 'Bill Only001');
    const bill = await upload(t, {
      documentHolder: c.id,
      documentType: 'UTILITY_BILL',
      country: 'US',
      file: { bytes: PDF, name: 'bill.pdf' },
    });
    expect(bill.status).toBe(201);
    expect((await verify(t, c.id)).body.errors).toEqual([missingDocument(c.id)]);
  });

  it('no full name (customer created without one) → MISSING_FIELD fullName', async () => {
    const c = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', ...COMPLETE_INDIVIDUAL } }))
      .body;
    await uploadPassport(t, c.id);
    expect((await verify(t, c.id)).body.errors).toEqual([missingField(c.id, 'fullName')]);
  });

  it('everything missing → seven entries, in the spec order', async () => {
    const c = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL' } })).body;
    const answer = await verify(t, c.id);
    expect(answer.body.errors).toEqual([
      ...['fullName', 'birthDate', 'nationality', 'idType', 'identifier', 'address'].map((f) => missingField(c.id, f)),
      missingDocument(c.id),
    ]);
  });
});

describe('the Individual KYC table with complete data', () => {
  it('001 → PENDING_MANUAL_REVIEW, no errors, kycStatus PENDING', async () => {
    const c = await createIndividual(t, 'Rev Iew001');
    expect(c.kycStatus).toBe('PENDING');
    await uploadPassport(t, c.id);
    const answer = await verify(t, c.id);
    checkShape(answer.body, c.id, 'PENDING_MANUAL_REVIEW');
    expect(answer.body.errors).toEqual([]);
    expect((await t.call('GET', `/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
  });

  it('003 → RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT on the latest identity document; kycStatus stays UNVERIFIED', async () => {
    const c = await createIndividual(t, 'Blurry Photo003');
    expect(c.kycStatus).toBe('UNVERIFIED');
    await uploadPassport(t, c.id);
    const latest = await uploadPassport(t, c.id);
    const answer = await verify(t, c.id);
    checkShape(answer.body, c.id, 'RESOLVE_ERRORS');
    expect(answer.body.errors).toEqual([
      { resourceId: latest.id, type: 'POOR_QUALITY_DOCUMENT', reason: expect.any(String) },
    ]);
    expect((await t.call('GET', `/customers/${c.id}`)).body.kycStatus).toBe('UNVERIFIED');
  });

  it('003 with data missing reports what is missing first', async () => {
    const c = await createIndividual(t, 'Blurry Gaps003', without('address'));
    expect((await verify(t, c.id)).body.errors).toEqual([missingField(c.id, 'address'), missingDocument(c.id)]);
  });

  it.each([
    ['002 (REJECTED)', 'Nope Person002', 'REJECTED'],
    ['any other ending (APPROVED)', 'Fine Person', 'APPROVED'],
    ['004 (APPROVED)', 'Fine Person004', 'APPROVED'],
  ])('%s → 400, even with complete data and a document', async (_row, fullName, kycStatus) => {
    const c = await createIndividual(t, fullName);
    expect(c.kycStatus).toBe(kycStatus);
    await uploadPassport(t, c.id);
    const answer = await verify(t, c.id);
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'customerId' }] },
    });
    expect(answer.body.message).toContain(kycStatus);
  });
});

describe('fix-and-resubmit', () => {
  it('RESOLVE_ERRORS → PATCH the fields and upload a passport → PENDING_MANUAL_REVIEW with kycStatus PENDING; one event per change', async () => {
    const c = await createIndividual(t, 'Fix Later001', {});
    const first = await verify(t, c.id);
    expect(first.body.errors.map((e: { field?: string; type: string }) => e.field ?? e.type)).toEqual([
      'birthDate',
      'nationality',
      'idType',
      'identifier',
      'address',
      'MISSING_IDENTITY_DOCUMENT',
    ]);
    const patched = await t.call('PATCH', `/customers/${c.id}`, {
      body: { customerType: 'INDIVIDUAL', ...COMPLETE_INDIVIDUAL },
    });
    expect(patched.status).toBe(200);
    expect((await verify(t, c.id)).body.errors).toEqual([missingDocument(c.id)]);
    await uploadPassport(t, c.id);
    const done = await verify(t, c.id);
    checkShape(done.body, c.id, 'PENDING_MANUAL_REVIEW');
    expect(done.body.errors).toEqual([]);
    expect((await t.call('GET', `/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
    // Submitting again while in review: the same answer, and no second customer event.
    expect((await verify(t, c.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');

    const events = await eventsAbout(t, hooks, c.id);
    expect(events.map((d) => d.body.type)).toEqual([
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
      'CUSTOMER.KYC_PENDING',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
    ]);
    expect(events[2]!.body.data).toEqual(done.body);
    expect(events[3]!.body.data).toMatchObject({
      id: c.id,
      customerType: 'INDIVIDUAL',
      kycStatus: 'PENDING',
      address: ADDRESS,
    });
    expect(events[3]!.raw.toString()).not.toContain(COMPLETE_INDIVIDUAL.identifier);
  });
});

describe('POST /verifications refusals and reads', () => {
  it.each([
    ['no customerId', {}],
    ['a malformed customerId', { customerId: 'Customer:123' }],
    ['a number', { customerId: 42 }],
  ])('400 INVALID_INPUT naming customerId: %s', async (_name, body) => {
    const answer = await t.call('POST', '/verifications', { body });
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'customerId' }] },
    });
  });

  it('404 USER_NOT_FOUND for an unknown customer; 400 naming body without JSON', async () => {
    expect(errorShape(await verify(t, `Customer:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'USER_NOT_FOUND',
    });
    const text = await t.call('POST', '/verifications', {
      body: 'customerId=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(errorShape(text)).toMatchObject({ status: 400, details: { errors: [{ field: 'body' }] } });
  });

  it('GET /verifications/{id} and the list by customerId and verificationStatus', async () => {
    const c = await createIndividual(t, 'Listed001');
    const a = await verify(t, c.id);
    await uploadPassport(t, c.id);
    const b = await verify(t, c.id);
    expect((await t.call('GET', `/verifications/${a.body.id}`)).body).toEqual(a.body);
    expect(errorShape(await t.call('GET', `/verifications/Verification:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'REFERENCE_NOT_FOUND',
    });
    expect((await t.call('GET', `/verifications?customerId=${c.id}`)).body).toEqual({
      data: [a.body, b.body],
      hasMore: false,
      totalCount: 2,
    });
    expect(
      (await t.call('GET', `/verifications?customerId=${c.id}&verificationStatus=PENDING_MANUAL_REVIEW`)).body.data,
    ).toEqual([b.body]);
    const bad = await t.call('GET', '/verifications?verificationStatus=DONE&limit=x');
    expect((errorShape(bad).details.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'limit',
      'verificationStatus',
    ]);
  });
});
