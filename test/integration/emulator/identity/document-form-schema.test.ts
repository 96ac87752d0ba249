/**
 * The parts of a document upload (POST /documents) and replacement (PUT /documents/{documentId})
 * are checked against the description's form schema before the handler, as a JSON body is: required
 * parts, the document types and sides, ISO countries. A refusal is 400 INVALID_INPUT naming each
 * field with the schema's rule, and nothing is created or replaced. A part's value is its content,
 * sent as text or as a file; that a text part comes as text is the emulator's own rule, after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { JPEG, PDF, createIndividual, sendDocumentForm, upload, type UploadFields } from './support.js';

let t: TestEmulator;
let holder: string;
beforeAll(async () => {
  t = await testEmulator();
  holder = (await createIndividual(t, 'Form Holder')).id;
});
afterAll(() => t.close());

const passport = { bytes: JPEG, name: 'passport.jpg', type: 'image/jpeg' };
const valid = (): UploadFields => ({ documentHolder: holder, documentType: 'PASSPORT', country: 'US', file: passport });
const held = async () => (await t.call('GET', `/documents?documentHolder=${holder}`)).body.totalCount as number;

/** The refusal's entries as field → rule. */
function refused(answer: Awaited<ReturnType<typeof upload>>): Record<string, string | undefined> {
  const error = errorShape(answer);
  expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  const errors = error.details.errors as { field: string; rule?: string }[];
  for (const e of errors) expect(error.message).toContain(e.field);
  return Object.fromEntries(errors.map((e) => [e.field, e.rule]));
}

describe('POST /documents', () => {
  it.each([
    ['a document type the description does not list', { documentType: 'SELFIE_STICK' }, 'documentType', 'enum'],
    ['a side other than FRONT or BACK', { side: 'TOP' }, 'side', 'enum'],
    ['a three-letter country', { country: 'USA' }, 'country', 'format'],
    ['a country that ISO 3166 does not assign', { country: 'XX' }, 'country', 'format'],
    ['no documentHolder', { documentHolder: undefined }, 'documentHolder', 'required'],
    ['no documentType', { documentType: undefined }, 'documentType', 'required'],
    ['no country', { country: undefined }, 'country', 'required'],
    ['no file', { file: undefined }, 'file', 'required'],
  ] as const)('%s: 400 naming %s with its rule, nothing created', async (_case, change, field, rule) => {
    const before = await held();
    expect(refused(await upload(t, { ...valid(), ...change }))).toEqual({ [field]: rule });
    expect(await held()).toBe(before);
  });

  it('the rule’s allowed values come with an enum refusal', async () => {
    const answer = await upload(t, { ...valid(), side: 'TOP' });
    expect(answer.body.details.errors[0].constraint.enum).toEqual(['FRONT', 'BACK']);
  });

  it('every failing part at once', async () => {
    const answer = await upload(t, { documentType: 'SELFIE_STICK', side: 'TOP', country: 'EU', file: passport });
    expect(refused(answer)).toEqual({
      documentHolder: 'required',
      documentType: 'enum',
      side: 'enum',
      country: 'format',
    });
  });

  it('a text part sent as a file is judged by its content, then refused by the emulator naming it, nothing created', async () => {
    const before = await held();
    const form = new FormData();
    form.append('documentHolder', holder);
    form.append('documentType', new Blob(['PASSPORT']), 'type.txt');
    form.append('side', new Blob(['TOP']), 'side.txt');
    form.append('country', 'US');
    form.append('file', new Blob([JPEG], { type: 'image/jpeg' }), 'passport.jpg');
    const answer = await sendDocumentForm(t, form);
    expect(refused(answer)).toEqual({ side: 'enum' });
    form.set('side', 'FRONT');
    const ours = await sendDocumentForm(t, form);
    expect(Object.keys(refused(ours))).toEqual(['documentType']);
    expect(ours.body.details.errors[0].message).toMatch(/text value, not a file/);
    expect(await held()).toBe(before);
  });
});

it('PUT /documents/{documentId}: the same rules; the document is left as it was', async () => {
  const created = await upload(t, valid());
  expect(created.status, created.text).toBe(201);
  const replaced = await upload(
    t,
    { documentType: 'SELFIE_STICK', country: 'GB', file: { bytes: PDF, name: 'new.pdf' } },
    created.body.id,
  );
  expect(refused(replaced)).toEqual({ documentType: 'enum' });
  expect((await t.call('GET', `/documents/${created.body.id}`)).body).toEqual(created.body);
});
