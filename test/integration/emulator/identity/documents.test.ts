/**
 * POST /documents over real HTTP with real multipart bodies: any JPEG, PNG or PDF by its first
 * bytes, anything else 400 naming `file`, every bad field at once, 404 for unknown holders, 400
 * naming `file` beyond 10 MB, and GET /documents/{id} and the paged list.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, errorShape, testEmulator, type TestEmulator } from '../support.js';
import {
  COMPLETE_INDIVIDUAL,
  GIF,
  JPEG,
  PDF,
  PNG,
  createBusiness,
  createIndividual,
  ownerBody,
  upload,
  uploadPassport,
  verify,
  type UploadFields,
} from './support.js';

let t: TestEmulator;
let holder: string;
beforeAll(async () => {
  t = await testEmulator();
  holder = (await createIndividual(t, 'Doc Holder')).id;
});
afterAll(() => t.close());

const valid = (file: UploadFields['file']): UploadFields => ({
  documentHolder: holder,
  documentType: 'PASSPORT',
  country: 'US',
  documentNumber: 'X123',
  issuingAuthority: 'State Dept',
  file,
});

describe('POST /documents accepts JPEG, PNG and PDF by their bytes', () => {
  it.each([
    ['JPEG', { bytes: JPEG, name: 'id.jpg', type: 'image/jpeg' }],
    ['PNG', { bytes: PNG, name: 'id.png', type: 'image/png' }],
    ['PDF', { bytes: PDF, name: 'id.pdf', type: 'application/pdf' }],
    ['PNG named .txt and sent as text/plain', { bytes: PNG, name: 'scan.txt', type: 'text/plain' }],
  ])('%s → 201 Document', async (_kind, file) => {
    const answer = await upload(t, valid(file));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/),
      documentHolder: holder,
      documentType: 'PASSPORT',
      country: 'US',
      documentNumber: 'X123',
      issuingAuthority: 'State Dept',
      fileName: file.name,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await t.call('GET', `/documents/${answer.body.id}`)).body).toEqual(answer.body);
  });

  it('a beneficial owner can hold a document too', async () => {
    const business = await createBusiness(t, 'DOC-001');
    const owner = await t.call('POST', '/beneficial-owners', { body: ownerBody(business.id, 'Owner') });
    const answer = await upload(t, {
      ...valid({ bytes: PDF, name: 'dl.pdf' }),
      documentHolder: owner.body.id,
      documentType: 'DRIVERS_LICENSE',
      side: 'FRONT',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      documentHolder: owner.body.id,
      documentType: 'DRIVERS_LICENSE',
      side: 'FRONT',
    });
  });
});

describe('POST /documents refusals', () => {
  it.each([
    ['a GIF', { bytes: GIF, name: 'id.gif', type: 'image/gif' }],
    ['a text file named .pdf', { bytes: Buffer.from('hello, not a pdf'), name: 'id.pdf', type: 'application/pdf' }],
    ['an empty file', { bytes: Buffer.alloc(0), name: 'id.jpg', type: 'image/jpeg' }],
    ['file sent as a text value', '%PDF-1.7 as text'],
  ])('400 INVALID_INPUT naming file: %s', async (_name, file) => {
    const answer = await upload(t, valid(file));
    expect(errorShape(answer)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'file', message: expect.any(String) }] },
    });
    expect(answer.body.details.errors).toHaveLength(1);
  });

  it('400 lists every bad field at once: the schema’s, else the emulator’s (holder id, file content)', async () => {
    const bad = { documentHolder: 'Customer:nope', file: { bytes: GIF, name: 'x.gif' } };
    const answer = await upload(t, { ...bad, documentType: 'SELFIE_STICK', country: 'USA', side: 'TOP' });
    const fields = (errorShape(answer).details.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields.sort()).toEqual(['country', 'documentType', 'side']);
    const ours = await upload(t, { ...bad, documentType: 'PASSPORT', country: 'US', side: 'FRONT' });
    expect((errorShape(ours).details.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'documentHolder',
      'file',
    ]);
    const empty = await upload(t, { documentNumber: 'only this' });
    expect((errorShape(empty).details.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'country',
      'documentHolder',
      'documentType',
      'file',
    ]);
  });

  it('400 naming body for a JSON or broken multipart body', async () => {
    const json = await t.call('POST', '/documents', { body: { documentHolder: holder } });
    expect(errorShape(json)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'body' }] },
    });
    const broken = await t.call('POST', '/documents', {
      body: 'no parts here',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    });
    expect(errorShape(broken)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'body' }] },
    });
  });

  it('404 for an unknown customer (USER_NOT_FOUND) or beneficial owner', async () => {
    const noCustomer = await upload(t, {
      ...valid({ bytes: JPEG, name: 'a.jpg' }),
      documentHolder: `Customer:${randomUUID()}`,
    });
    expect(errorShape(noCustomer)).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    const noOwner = await upload(t, {
      ...valid({ bytes: JPEG, name: 'a.jpg' }),
      documentHolder: `BeneficialOwner:${randomUUID()}`,
    });
    expect(errorShape(noOwner)).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('400 naming file for a file over 10 MB (body when it cannot hold one); exactly 10 MB is accepted', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    PDF.copy(big);
    const over = await upload(t, valid({ bytes: big, name: 'big.pdf', type: 'application/pdf' }));
    expect(errorShape(over)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(errorShape(over).details.errors.map((e: { field: string }) => e.field)).toEqual(['file']);
    const limit = await upload(
      t,
      valid({ bytes: big.subarray(0, 10 * 1024 * 1024), name: 'limit.pdf', type: 'application/pdf' }),
    );
    expect(limit.status).toBe(201);
    // A body far beyond any file's room is refused before it is read (Content-Length alone).
    const huge = await request(`${t.emu.baseUrl}/documents`, {
      method: 'POST',
      headers: { authorization: basicAuth(t.emu), 'content-type': 'multipart/form-data; boundary=B' },
      body: Buffer.alloc(11 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(400);
    const refused = (await huge.body.json()) as { code: string; details: { errors: { field: string }[] } };
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details.errors.map((e) => e.field)).toEqual(['body']);
  });
});

describe('GET /documents', () => {
  it('404 for an unknown document; the list filters by documentHolder and pages', async () => {
    expect(errorShape(await t.call('GET', `/documents/Document:${randomUUID()}`))).toMatchObject({
      status: 404,
      code: 'REFERENCE_NOT_FOUND',
    });
    const other = (await createIndividual(t, 'Two Docs')).id;
    const a = await upload(t, { ...valid({ bytes: JPEG, name: 'a.jpg' }), documentHolder: other });
    const b = await upload(t, {
      ...valid({ bytes: PNG, name: 'b.png' }),
      documentHolder: other,
      documentType: 'UTILITY_BILL',
    });
    const first = await t.call('GET', `/documents?documentHolder=${other}&limit=1`);
    expect(first.body).toMatchObject({ data: [a.body], hasMore: true, totalCount: 2 });
    const second = await t.call('GET', `/documents?documentHolder=${other}&limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [b.body], hasMore: false, totalCount: 2 });
    expect(errorShape(await t.call('GET', '/documents?documentHolder=someone')).details.errors[0].field).toBe(
      'documentHolder',
    );
  });
});

describe('PUT and DELETE /documents/{documentId}', () => {
  it('PUT replaces file and metadata, keeps id, holder and createdAt; refusals as for an upload', async () => {
    const doc = await uploadPassport(t, holder);
    t.emu.testing.advanceClock(5_000);
    const answer = await upload(
      t,
      {
        documentType: 'NATIONAL_ID',
        country: 'GB',
        side: 'BACK',
        documentHolder: `Customer:${randomUUID()}`,
        file: { bytes: PNG, name: 'back.png' },
      },
      doc.id,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      id: doc.id,
      documentHolder: holder,
      documentType: 'NATIONAL_ID',
      country: 'GB',
      side: 'BACK',
      fileName: 'back.png',
      createdAt: doc.createdAt,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(answer.body.updatedAt) - Date.parse(doc.createdAt)).toBeGreaterThanOrEqual(5_000);
    expect((await t.call('GET', `/documents/${doc.id}`)).body).toEqual(answer.body);
    const bad = await upload(t, { country: 'GB', file: { bytes: GIF, name: 'x.gif' } }, doc.id);
    expect((errorShape(bad).details.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['documentType']);
    const gif = await upload(
      t,
      { documentType: 'PASSPORT', country: 'GB', file: { bytes: GIF, name: 'x.gif' } },
      doc.id,
    );
    expect((errorShape(gif).details.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['file']);
    const unknown = await upload(
      t,
      { documentType: 'PASSPORT', country: 'US', file: { bytes: PDF, name: 'a.pdf' } },
      `Document:${randomUUID()}`,
    );
    expect(errorShape(unknown)).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('DELETE is 204 before a verification looked at the document, 409 CONFLICT after; a replaced one may go again', async () => {
    const person = (await createIndividual(t, 'Deleter001', COMPLETE_INDIVIDUAL)).id;
    const early = await uploadPassport(t, person);
    const del = await t.call('DELETE', `/documents/${early.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.call('GET', `/documents/${early.id}`)).status).toBe(404);
    expect(errorShape(await t.call('DELETE', `/documents/${early.id}`))).toMatchObject({ status: 404 });

    const submitted = await uploadPassport(t, person);
    expect((await verify(t, person)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect(errorShape(await t.call('DELETE', `/documents/${submitted.id}`))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect(
      (
        await upload(
          t,
          { documentType: 'PASSPORT', country: 'US', file: { bytes: JPEG, name: 'new.jpg' } },
          submitted.id,
        )
      ).status,
    ).toBe(200);
    expect((await t.call('DELETE', `/documents/${submitted.id}`)).status).toBe(204);
  });
});
